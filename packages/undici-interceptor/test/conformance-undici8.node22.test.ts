import { clientConformance } from '@jwe-transport/test-support/client-conformance';
import * as undici from 'undici8';
import { undiciDrivers } from './helpers/undici-driver.js';
import type { Undici } from './helpers/undici-suite.js';

// undici 8 needs Node >= 22.19: this file runs only in CI's Node 24 pass.
for (const driver of undiciDrivers('undici 8', undici as unknown as Undici)) clientConformance(driver);
