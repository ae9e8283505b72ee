import ky2 from 'ky2';
import { authSuite, type KyUnderTest } from './auth-suite.js';

// ky 2.x (Node >= 22): one state object per hook; the forced retry goes through beforeRetry.
authSuite('ky 2.x', ky2 as unknown as KyUnderTest);
