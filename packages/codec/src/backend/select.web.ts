import type { Streaming } from '../stream/types.js';

// What `#backend` means everywhere else: WebCrypto. It has no incremental AES-CBC or HMAC, so no
// constant-memory streaming; the streaming functions refuse with ERR_JWE_UNSUPPORTED.
export { webBackend as backend } from './web.js';
export const streaming: Streaming | undefined = undefined;
