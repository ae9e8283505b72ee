import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import { undiciDrivers } from '@jwe-transport/test-support/client-drivers/undici';
import * as undici from 'undici';
import { jweInterceptor } from '../src/index.js';

for (const driver of undiciDrivers('undici 7', undici, jweInterceptor)) clientConformance(driver);
