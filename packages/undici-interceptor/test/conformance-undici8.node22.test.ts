import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import type { Undici } from '@jwe-transport/test-support/client-drivers/undici';
import { undiciDrivers } from '@jwe-transport/test-support/client-drivers/undici';
import * as undici from 'undici8';
import { jweInterceptor } from '../src/index.js';

// undici 8 needs Node >= 22.19: this file runs only in CI's Node 24 pass.
for (const driver of undiciDrivers('undici 8', undici as unknown as Undici, jweInterceptor))
  clientConformance(driver);
