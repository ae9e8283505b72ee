import { MiB } from '@jwe-transport/test-support/client/large-file';
import ky from 'ky';
import { progressSuite } from '../helpers/progress-suite.js';

progressSuite('ky 1.x', ky, 64 * MiB);
