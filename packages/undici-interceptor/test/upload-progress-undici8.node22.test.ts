import { MiB } from '@jwe-transport/test-support/client/large-file';
import * as undici from 'undici8';
import { progressSuite } from './helpers/progress-suite.js';
import type { Undici } from './helpers/undici-suite.js';

// undici 8 needs Node >= 22.19 (its engines field): this file runs only in the Node 24 pass.
progressSuite(6 * MiB + 5, undici as unknown as Undici, 'undici 8');
