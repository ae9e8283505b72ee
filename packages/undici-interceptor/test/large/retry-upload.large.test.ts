import { MiB } from '@jwe-transport/test-support/client/large-file';
import * as undici from 'undici';
import { retryUploadSuite } from '../helpers/retry-upload-suite.js';

// 64 MiB from disk, sent twice (the first attempt is refused with a 503 after it was read): both
// attempts stream, so memory grows by far less than the file. `pnpm test:large` runs on Node 20,
// hence undici 7 only; the same suite runs with undici 8 at 9 MiB on Node 24.
retryUploadSuite('undici 7', undici, { size: 64 * MiB + 3, memoryBound: 48 * MiB });
