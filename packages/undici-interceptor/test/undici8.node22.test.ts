import * as undici from 'undici8';
import { type Undici, undiciSuite } from './helpers/undici-suite.js';

// undici 8 needs Node >= 22.19 (its engines field): this file runs only in the Node 24 pass.
undiciSuite('undici 8', undici as unknown as Undici);
