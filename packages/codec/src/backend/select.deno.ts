// What `#backend` means under the `deno` condition. One-shot on WebCrypto: Deno's crypto.subtle is
// its own native code, while its node:crypto ciphers and latin1 Buffers go through the slower Node
// compatibility layer. Streaming on node:crypto all the same: WebCrypto has no incremental
// AES-CBC or HMAC, and Deno's Node layer runs the streaming engine, so files stay in constant memory.

export { streaming } from '../stream/node.js';
export { webBackend as backend } from './web.js';
