// What a user's ESM code does with the codec's bytes. Compiled by test/types.test.ts.
import {
  BLOCK_BYTES,
  type DecryptResult,
  decrypt,
  decryptDetailed,
  decryptFile,
  decryptFileStream,
  deriveKey,
  type Envelope,
  encryptFile,
  encryptFileStream,
  encryptJson,
  encryptSync,
  IV_BYTES,
  type JweErrorCode,
  KEY_BYTES,
  SHARED_KEY_BYTES,
  TAG_BYTES,
} from '@jwe-transport/codec';

export async function passBytesOn(envelope: Envelope, key: string): Promise<number> {
  const plaintext = await decrypt(envelope, key);
  const file = await decryptFile(envelope, key);
  const detailed: DecryptResult = await decryptDetailed(envelope, key);
  const raw = deriveKey(key);

  const blob = new Blob([plaintext, file, detailed.plaintext, raw]);
  const response = new Response(file);
  const digest = await crypto.subtle.digest('SHA-256', plaintext);
  await crypto.subtle.importKey('raw', raw, 'HMAC', false, ['sign']);
  const exact: Uint8Array<ArrayBuffer> = file;

  // The check above is meaningful: a view that may sit on shared memory is refused by this config.
  // @ts-expect-error Uint8Array<ArrayBufferLike> is not a BufferSource under TypeScript 5.9 with lib dom.
  await crypto.subtle.digest('SHA-256', new Uint8Array(8) as Uint8Array<ArrayBufferLike>);

  const sizes: number = IV_BYTES + TAG_BYTES + BLOCK_BYTES + KEY_BYTES + SHARED_KEY_BYTES;
  const code: JweErrorCode = 'ERR_JWE_DECRYPTION_FAILED';
  return (
    blob.size +
    (await response.arrayBuffer()).byteLength +
    digest.byteLength +
    exact.length +
    sizes +
    code.length
  );
}

export async function streamThrough(file: ReadableStream<Uint8Array>, key: string): Promise<void> {
  const envelope: ReadableStream<Uint8Array<ArrayBuffer>> = encryptFileStream(file, key, { kid: 'k1' });
  const upload = new Response(envelope);
  const sink = new WritableStream<Uint8Array>();
  const result = await decryptFileStream(upload.body!, key, { to: sink, maxSize: 2 ** 30 });
  const kid: string | undefined = result.kid;
  void kid;
}

export async function envelopes(key: string): Promise<string> {
  const a = await encryptFile(new Uint8Array(3), key);
  const b = await encryptJson({ hello: 'world' }, key, { kid: 'k1' });
  const c = encryptSync('text', key);
  return JSON.stringify([a, b, c]);
}
