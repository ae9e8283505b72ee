import ky from 'ky';
import { progressSuite } from './helpers/progress-suite.js';

progressSuite('ky 1.x', ky);
