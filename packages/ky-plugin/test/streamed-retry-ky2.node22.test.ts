import ky2 from 'ky2';
import type { KyLike } from './helpers/ky-suite.js';
import { streamedRetrySuite } from './helpers/streamed-retry-suite.js';

streamedRetrySuite('ky 2.x', ky2 as unknown as KyLike);
