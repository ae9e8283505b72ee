import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import * as undici from 'undici';
import { undiciDrivers } from './helpers/undici-driver.js';

for (const driver of undiciDrivers('undici 7', undici)) clientConformance(driver);
