// Everything that does not depend on the crypto back end; both entry points re-export it.
export type {
  DecryptOptions,
  DecryptResult,
  EncryptOptions,
  HeaderSource,
  MissingProtectedPolicy,
} from './codec.js';
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
export { BLOCK_BYTES, IV_BYTES, TAG_BYTES } from './sizes.js';
export { isJweTransportError, JweTransportError } from './transport-error.js';
