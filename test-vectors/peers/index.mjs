export * from './jose-c.mjs';
export * from './jwcrypto.mjs';
