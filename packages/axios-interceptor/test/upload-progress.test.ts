// axios's onUploadProgress with useJwe: the file's plaintext bytes, at axios's own (throttled)
// cadence. 64 MiB: test/large/.
import { MiB } from '@jwe-transport/test-support/client/large-file';
import { progressSuite } from './helpers/progress-suite.js';

progressSuite(6 * MiB + 7);
