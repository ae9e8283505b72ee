import ky2 from 'ky2';
import { kyFailClosedSuite } from './helpers/ky-fail-closed-suite.js';
import type { KyLike } from './helpers/ky-suite.js';

kyFailClosedSuite('ky 2.x', ky2 as unknown as KyLike);
