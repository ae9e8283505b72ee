// The package's public surface as the tests use it, plus the codec's keyring for rotations.
export { keyring as keyringFor } from '@jwe-transport/codec';
export * from '../../src/adapter/index.node.js';
export * from '../../src/index.node.js';
