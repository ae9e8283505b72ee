/**
 * `@jwe-transport/client-core` on Node.js: everything from the default build, plus helpers that
 * stream files from disk and hand sealed bodies to Node streams.
 * @packageDocumentation
 */

import { watchSealedUploads } from './node/early-answers.js';
import { setSentStreamWatch } from './sent-stream-watch.js';

export * from './index.js';
export { keepEarlyAnswers } from './node/early-answers.js';
export { fileFromPath, toNodeReadable } from './node/files.js';

// A server that answers an upload early and closes the connection is reported with its answer.
setSentStreamWatch(watchSealedUploads);
