import { backend } from '#backend';

/**
 * Which crypto back end this build's one-shot functions use: `'node'` (node:crypto, chosen by the
 * `node` export condition) or `'webcrypto'` (Deno's `deno` condition, browsers, workers, and
 * `--conditions=browser`). Whether the streaming functions work is `streamingAvailable`.
 *
 * @example
 * ```ts
 * import { backendName } from '@jwe-transport/codec';
 *
 * if (backendName === 'webcrypto') console.warn('encryptSync needs the Node.js build');
 * ```
 */
export const backendName: 'node' | 'webcrypto' = backend.name;
