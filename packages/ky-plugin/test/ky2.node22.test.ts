import ky2 from 'ky2';
import { type KyLike, kySuite } from './helpers/ky-suite.js';

// ky 2.x (Node >= 22): one state object per hook, and beforeRequest runs once per call.
kySuite('ky 2.x', ky2 as unknown as KyLike);
