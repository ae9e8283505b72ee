import * as undici from 'undici8';
import { retryUploadSuite } from './helpers/retry-upload-suite.js';
import type { Undici } from './helpers/undici-suite.js';

// undici 8 needs Node >= 22.19 (its engines field): this file runs only in the Node 24 pass.
retryUploadSuite('undici 8', undici as unknown as Undici);
