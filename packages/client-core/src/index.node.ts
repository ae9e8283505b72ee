/**
 * `@jwe-transport/client-core` on Node.js: everything from the default build, plus `fileFromPath`,
 * which streams a file from disk.
 * @packageDocumentation
 */

import { watchSealedUploads } from './node/early-answers.js';
import { setSentStreamWatch } from './sent-stream-watch.js';

export * from './index.js';
export { fileFromPath } from './node/files.js';

// A server that answers an upload early and closes the connection is reported with its answer.
setSentStreamWatch(watchSealedUploads);
