// What `#backend` means under the `node` condition: node:crypto, and the streaming functions.

export { streaming } from '../stream/node.js';
export { nodeBackend as backend } from './node.js';
