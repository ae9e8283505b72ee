// undici: upload progress in plaintext bytes, through request()'s own option or the interceptor's
// (fetch() drops unknown options, so it reports through the interceptor's). 64 MiB: test/large/.
import { MiB } from '@jwe-transport/test-support/client/large-file';
import { progressSuite } from './helpers/progress-suite.js';

progressSuite(6 * MiB + 5);
