import { backend } from '#backend';

/**
 * Which crypto back end this build uses: `'node'` (node:crypto, chosen by the `node` export
 * condition) or `'webcrypto'` (browsers, workers, and `--conditions=browser`).
 *
 * @example
 * ```ts
 * import { backendName } from '@jwe-transport/codec';
 *
 * if (backendName === 'webcrypto') console.warn('streaming needs the Node.js build');
 * ```
 */
export const backendName: 'node' | 'webcrypto' = backend.name;
