import ky from 'ky';
import { kyFailClosedSuite } from './helpers/ky-fail-closed-suite.js';

kyFailClosedSuite('ky 1.x', ky);
