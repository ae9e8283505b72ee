import ky from 'ky';
import { kySuite } from './helpers/ky-suite.js';

// ky 1.x: positional hook arguments, and beforeRequest runs again on every retry.
kySuite('ky 1.x', ky);
