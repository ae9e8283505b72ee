/**
 * `@jwe-transport/client-core/adapter` on Node.js: the adapter pieces, plus what hands sealed
 * bodies to Node streams and keeps a server's early answer readable.
 * @packageDocumentation
 */

import { watchSealedUploads } from '../node/early-answers.js';
import { setSentStreamWatch } from '../sent-stream-watch.js';

export { keepEarlyAnswers } from '../node/early-answers.js';
export { toNodeReadable } from '../node/files.js';
export * from './index.js';

// A server that answers an upload early and closes the connection is reported with its answer.
setSentStreamWatch(watchSealedUploads);
