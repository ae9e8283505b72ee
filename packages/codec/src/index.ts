/**
 * `@jwe-transport/codec`: strict JWE envelopes (`dir` + `A128CBC-HS256`). One source, three builds:
 * the `node` export condition gets node:crypto and streaming, `deno` gets WebCrypto one-shot with
 * node:crypto streaming, everything else WebCrypto alone. Each build picks its back end through
 * the package's `#backend` import condition.
 * @packageDocumentation
 */
export { backendName } from './api/backend-name.js';
export { decrypt } from './api/decrypt.js';
export { decryptDetailed } from './api/decrypt-detailed.js';
export { decryptFile } from './api/decrypt-file.js';
export { decryptFileStream } from './api/decrypt-file-stream.js';
export { decryptJson } from './api/decrypt-json.js';
export { decryptStream } from './api/decrypt-stream.js';
export { encrypt } from './api/encrypt.js';
export { encryptFile } from './api/encrypt-file.js';
export { encryptFileStream } from './api/encrypt-file-stream.js';
export { encryptFileToBytes } from './api/encrypt-file-to-bytes.js';
export { encryptFileToString } from './api/encrypt-file-to-string.js';
export { encryptJson } from './api/encrypt-json.js';
export { encryptStream } from './api/encrypt-stream.js';
export { encryptSync } from './api/encrypt-sync.js';
export { streamingAvailable } from './api/streaming-available.js';
export {
  type JweChannelName,
  type JweTraceContext,
  type JweTraceOutcome,
  OPEN_CHANNEL,
  SEAL_CHANNEL,
  TRACE_KID_MAX,
} from './diagnostics/channels.js';
export {
  ENVELOPE_MEMBERS,
  type Envelope,
  type EnvelopeInput,
  fromCompact,
  parseEnvelope,
  readEnvelope,
  toCompact,
} from './envelope.js';
export { isJweError, JweError, type JweErrorCode } from './errors.js';
export { ALG, ENC, type JoseHeader, PROTECTED_COMPACT, PROTECTED_SPACED } from './header.js';
export {
  deriveKey,
  KEY_BYTES,
  type KeyInput,
  type KeyResolver,
  keyring,
  SHARED_KEY_BYTES,
} from './key.js';
export type {
  DecryptOptions,
  DecryptResult,
  EncryptOptions,
  HeaderSource,
  MissingProtectedPolicy,
} from './options.js';
export { BLOCK_BYTES, IV_BYTES, TAG_BYTES } from './sizes.js';
export type {
  ByteSink,
  ByteSource,
  DecryptStreamOptions,
  DecryptStreamResult,
  EncryptStreamOptions,
} from './stream/types.js';
export { isJweTransportError, JweTransportError } from './transport-error.js';
