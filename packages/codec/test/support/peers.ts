import { CompactEncrypt, compactDecrypt, FlattenedEncrypt, flattenedDecrypt } from 'jose';
import { deriveKey } from '../../src/key.js';

export {
  joseCDecrypt,
  joseCEncrypt,
  jwcryptoDecrypt,
  jwcryptoEncrypt,
} from '../../../../test-vectors/peers/index.mjs';

/*
 * npm `jose` accepts a dir key for any enc unless told otherwise (field notes), so every call pins
 * the one algorithm pair this project speaks.
 */
const PINNED = { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A128CBC-HS256'] };
const PROTECTED = { alg: 'dir', enc: 'A128CBC-HS256' } as const;

/** Decrypts a flattened envelope object or a compact string with npm `jose`. */
export async function joseNpmDecrypt(keyString: string, envelope: object | string): Promise<Uint8Array> {
  const key = deriveKey(keyString);
  if (typeof envelope === 'string') return (await compactDecrypt(envelope, key, PINNED)).plaintext;
  return (await flattenedDecrypt(envelope as Parameters<typeof flattenedDecrypt>[0], key, PINNED)).plaintext;
}

export async function joseNpmEncrypt(
  keyString: string,
  plaintext: Uint8Array,
  options: { aad?: Uint8Array } = {},
): Promise<Record<string, unknown>> {
  const builder = new FlattenedEncrypt(plaintext).setProtectedHeader(PROTECTED);
  if (options.aad) builder.setAdditionalAuthenticatedData(options.aad);
  return { ...(await builder.encrypt(deriveKey(keyString))) };
}

/** npm jose with no protected header at all: alg and enc in the shared unprotected header. */
export async function joseNpmEncryptUnprotected(
  keyString: string,
  plaintext: Uint8Array,
  options: { aad?: Uint8Array } = {},
): Promise<Record<string, unknown>> {
  const builder = new FlattenedEncrypt(plaintext).setSharedUnprotectedHeader(PROTECTED);
  if (options.aad) builder.setAdditionalAuthenticatedData(options.aad);
  return { ...(await builder.encrypt(deriveKey(keyString))) };
}

export function joseNpmEncryptCompact(keyString: string, plaintext: Uint8Array): Promise<string> {
  return new CompactEncrypt(plaintext).setProtectedHeader(PROTECTED).encrypt(deriveKey(keyString));
}
