import * as undici from 'undici';
import { undiciSuite } from './helpers/undici-suite.js';

undiciSuite(
  `undici ${(await import('undici/package.json', { with: { type: 'json' } })).default.version}`,
  undici,
);
