import { streaming } from '#backend';

/**
 * Whether this build's streaming functions (`encryptFileStream`, `decryptFileStream`,
 * `encryptStream`, `decryptStream`) work: `true` in the Node.js and Deno builds, which stream on
 * node:crypto; `false` in the WebCrypto build, where they throw `ERR_JWE_UNSUPPORTED`. It is not
 * `backendName === 'node'`: Deno's build streams although its one-shot back end is WebCrypto.
 *
 * @example
 * ```ts
 * import { encryptFile, encryptFileStream, streamingAvailable } from '@jwe-transport/codec';
 *
 * const body = streamingAvailable
 *   ? encryptFileStream(file.stream(), 'k3y-f0r-t3st1ng!')
 *   : JSON.stringify(await encryptFile(new Uint8Array(await file.arrayBuffer()), 'k3y-f0r-t3st1ng!'));
 * ```
 */
export const streamingAvailable: boolean = streaming !== undefined;
