// Reference JWE for the test server, written without @jwe-transport/codec so that the tests
// check our plugin against something independent: npm `jose` for whole envelopes, and
// node:crypto for what jose cannot produce or read (no `protected` member; streamed envelopes).
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { FlattenedEncrypt, flattenedDecrypt } from 'jose';

export type Envelope = Record<string, string>;

/** Spec 2.4: the shared key string concatenated with itself, as UTF-8. */
export function referenceKey(shared: string): Uint8Array {
  return new Uint8Array(Buffer.from(shared + shared, 'utf8'));
}

export async function joseEncrypt(plaintext: Uint8Array | string, key: Uint8Array, kid?: string) {
  const bytes = typeof plaintext === 'string' ? new TextEncoder().encode(plaintext) : plaintext;
  const envelope = (await new FlattenedEncrypt(bytes)
    .setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' })
    .encrypt(key)) as unknown as Envelope;
  return kid === undefined ? envelope : { ...envelope, kid };
}

export async function joseDecrypt(envelope: unknown, key: Uint8Array): Promise<Uint8Array> {
  const { plaintext } = await flattenedDecrypt(envelope as Parameters<typeof flattenedDecrypt>[0], key, {
    keyManagementAlgorithms: ['dir'],
    contentEncryptionAlgorithms: ['A128CBC-HS256'],
  });
  return plaintext;
}

/** RFC 7516 section 5.2 step 14 and RFC 7518 5.2.2.1: tag = HMAC(AAD || IV || C || AL), first 16 bytes. */
function macOf(macKey: Uint8Array, aad: Buffer, iv: Buffer, ciphertext: Buffer): Buffer {
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(aad.length * 8));
  return createHmac('sha256', macKey)
    .update(aad)
    .update(iv)
    .update(ciphertext)
    .update(al)
    .digest()
    .subarray(0, 16);
}

/** An envelope without `protected`, as the service documents its responses: empty AAD. */
export function bareEncrypt(plaintext: string, key: Uint8Array): Envelope {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-128-cbc', key.subarray(16), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = macOf(key.subarray(0, 16), Buffer.alloc(0), iv, ciphertext);
  return {
    iv: iv.toString('base64url'),
    ciphertext: ciphertext.toString('base64url'),
    tag: tag.toString('base64url'),
  };
}

/** Incremental base64 (either alphabet) decoding: whole 4-character groups only, the rest waits. */
function base64Decoder(encoding: 'base64' | 'base64url', onBytes: (bytes: Buffer) => void) {
  let pending = '';
  return {
    push(text: string) {
      pending += text;
      const whole = pending.length - (pending.length % 4);
      if (whole > 0) onBytes(Buffer.from(pending.slice(0, whole), encoding));
      pending = pending.slice(whole);
    },
    end() {
      if (pending.length > 0) onBytes(Buffer.from(pending, encoding));
      pending = '';
    },
  };
}

const FILE_PREFIX = '{"file":"';

/**
 * Decrypts a streamed file envelope `{"protected","iv","ciphertext","tag",...}` in bounded memory
 * and returns the SHA-256 and size of the file inside, only once the tag has verified. Needs
 * `protected` and `iv` before `ciphertext`, which is how envelopes are written.
 */
export async function streamDecryptFile(source: AsyncIterable<Buffer>, key: Uint8Array) {
  const members: Record<string, string> = {};
  const fileHash = createHash('sha256');
  let fileSize = 0;
  let payloadHead = '';
  let payloadState = 'prefix' as 'prefix' | 'body' | 'suffix';
  const fileBase64 = base64Decoder('base64', (bytes) => {
    fileHash.update(bytes);
    fileSize += bytes.length;
  });
  const onPlaintext = (bytes: Buffer) => {
    let text = bytes.toString('latin1');
    if (payloadState === 'prefix') {
      payloadHead += text;
      if (payloadHead.length < FILE_PREFIX.length) return;
      if (!payloadHead.startsWith(FILE_PREFIX)) throw new Error('plaintext is not a file payload');
      text = payloadHead.slice(FILE_PREFIX.length);
      payloadState = 'body';
    }
    if (payloadState === 'body') {
      const quote = text.indexOf('"');
      fileBase64.push(quote === -1 ? text : text.slice(0, quote));
      if (quote === -1) return;
      payloadState = 'suffix';
      text = text.slice(quote + 1);
    }
    if (text !== '' && text !== '}') throw new Error('unexpected bytes after the file member');
  };

  let mac: ReturnType<typeof createHmac> | undefined;
  let decipher: ReturnType<typeof createDecipheriv> | undefined;
  const cipherBase64 = base64Decoder('base64url', (bytes) => {
    mac!.update(bytes);
    onPlaintext(decipher!.update(bytes));
  });
  const startCiphertext = () => {
    if (members.iv === undefined) throw new Error('iv must come before ciphertext');
    const aad = Buffer.from(members.protected ?? '', 'ascii');
    const iv = Buffer.from(members.iv, 'base64url');
    mac = createHmac('sha256', key.subarray(0, 16)).update(aad).update(iv);
    decipher = createDecipheriv('aes-128-cbc', key.subarray(16), iv);
    return aad.length;
  };
  let aadLength = 0;

  // A tiny scanner for a flat JSON object of plain strings (no escapes), fed chunk by chunk.
  let state: 'start' | 'key' | 'name' | 'colon' | 'value-start' | 'value' | 'after' = 'start';
  let name = '';
  let value = '';
  for await (const chunk of source) {
    const text = chunk.toString('latin1');
    let at = 0;
    while (at < text.length) {
      const char = text[at]!;
      if (state === 'value') {
        const end = text.indexOf('"', at);
        const piece = text.slice(at, end === -1 ? text.length : end);
        if (name === 'ciphertext') cipherBase64.push(piece);
        else {
          value += piece;
          if (value.length > 4096) throw new Error(`member ${name} is too long`);
        }
        if (end === -1) break;
        at = end + 1;
        if (name === 'ciphertext') {
          cipherBase64.end();
          onPlaintext(decipher!.final());
        } else members[name] = value;
        state = 'after';
        continue;
      }
      at++;
      if (state !== 'name' && /\s/.test(char)) continue;
      if (state === 'start' && char === '{') state = 'key';
      else if (state === 'key' && char === '"') {
        name = '';
        state = 'name';
      } else if (state === 'name') {
        if (char === '"') state = 'colon';
        else name += char;
      } else if (state === 'colon' && char === ':') state = 'value-start';
      else if (state === 'value-start' && char === '"') {
        value = '';
        if (name === 'ciphertext') aadLength = startCiphertext();
        state = 'value';
      } else if (state === 'after' && char === ',') state = 'key';
      else if (state === 'after' && char === '}') state = 'start';
      else throw new Error(`unexpected ${JSON.stringify(char)} in the envelope`);
    }
  }
  if (!mac || members.tag === undefined) throw new Error('the envelope has no ciphertext or no tag');
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(aadLength * 8));
  const expected = mac.update(al).digest().subarray(0, 16);
  const tag = Buffer.from(members.tag, 'base64url');
  if (tag.length !== 16 || !timingSafeEqual(tag, expected)) throw new Error('tag mismatch');
  if (payloadState !== 'suffix') throw new Error('the file payload is incomplete');
  fileBase64.end();
  return { sha256: fileHash.digest('hex'), size: fileSize, kid: members.kid };
}
