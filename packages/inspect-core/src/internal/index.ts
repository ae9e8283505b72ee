/**
 * `@jwe-transport/inspect-core/internal`: helpers the repository's own CLI and inspector share with
 * the engine. Not part of the package's promise: any release may change or remove them.
 * @packageDocumentation
 */
export { Base64UrlAnalyzer } from '../base64url-check.js';
export { decryptionFailedError } from '../decrypt-with-keys.js';
export { formatSize, headerSourceNote } from '../format.js';
export { type HarEntryView, readHarEntry } from '../har.js';
export { readLooseEnvelope } from '../loose-envelope.js';
export { sniffMediaType } from '../media-type.js';
export { parseJsonQuietly } from '../parse-json.js';
export { describePayload } from '../payload.js';
