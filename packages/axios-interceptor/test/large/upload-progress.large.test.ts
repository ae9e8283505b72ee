import { MiB } from '@jwe-transport/test-support/client/large-file';
import { progressSuite } from '../helpers/progress-suite.js';

progressSuite(64 * MiB);
