import ky from 'ky';
import { authSuite, type KyUnderTest } from './auth-suite.js';

// ky 1.x: positional hook arguments; beforeRequest runs again on the forced retry.
authSuite('ky 1.x', ky as unknown as KyUnderTest);
