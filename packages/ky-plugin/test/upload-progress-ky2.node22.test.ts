import ky2 from 'ky2';
import type { KyLike } from './helpers/ky-suite.js';
import { progressSuite } from './helpers/progress-suite.js';

progressSuite('ky 2.x', ky2 as unknown as KyLike);
