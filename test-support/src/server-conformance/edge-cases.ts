import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { encrypt, encryptFile, encryptJson } from '@jwe-transport/codec';
import { describe, expect, vi } from 'vitest';
import type { ConformanceAdapter } from './adapter.js';
import { generatedFile } from './data.js';
import { check, KEYS, MiB, useServer } from './servers.js';
import { joseOpenJson, postEncrypted, rawPost, sha256, writeAll } from './wire.js';

const KEY = KEYS['kid-a'];
const sealed = (plaintext: string | Uint8Array) => encrypt(plaintext, KEY, { kid: 'kid-a' });
/** An 18-byte PDF: the signature a sniffer must recognise, and a little more. */
const PDF = Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n1 0', 'latin1').subarray(0, 18);

interface ErrorAnswer {
  error?: { type?: string; code?: string; message?: string };
}

/** The answer's error, opened when it came sealed. */
async function errorOf(response: Response): Promise<ErrorAnswer['error']> {
  const body = await response.json();
  const answer = (
    response.headers.get('x-encryption') === 'JWE' ? await joseOpenJson(KEY, body) : body
  ) as ErrorAnswer;
  return answer.error;
}

/** Every file under `dest`, with its mode, and every folder's mode. */
async function tree(dest: string) {
  const entries = await readdir(dest, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries.map(async (entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, dir: entry.isDirectory(), mode: (await stat(path)).mode & 0o777 };
    }),
  );
}

async function openFds(): Promise<number> {
  return (await readdir('/proc/self/fd')).length;
}

/** A multipart body written as the client goes: `parts` are [field, filename, type, bytes]. */
function multipartBody(
  parts: [string, string, string, Uint8Array][],
  boundary: string,
  end = true,
): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (const [field, filename, type, bytes] of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
          `Content-Type: ${type}\r\n\r\n`,
      ),
      bytes,
      Buffer.from('\r\n'),
    );
  }
  if (end) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return chunks;
}

function postMultipart(
  url: string,
  chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  boundary: string,
) {
  return rawPost(
    url,
    { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
    (body, answered) => writeAll(body, chunks, answered),
  );
}

/**
 * What the attack run and a new user's first tries found to differ between frameworks:
 * each is a 4xx with the same status, type and code everywhere (never a hang or a 5xx), and
 * uploads leave no file or fd behind, keep files 0600 in a private 0700 folder and stay in
 * bounded memory.
 */
export function edgeCases(adapter: ConformanceAdapter): void {
  const server = useServer(adapter, { keys: KEYS });

  check(adapter, 'malformed plain JSON', async () => {
    for (const body of ['{bad', '{"a":1', ' ']) {
      const response = await fetch(`${server.url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(await errorOf(response)).toMatchObject({ type: 'entity.parse.failed', code: 'ERR_BODY_PARSE' });
    }
  });

  check(adapter, 'malformed decrypted JSON', async () => {
    for (const text of ['{bad', '', '{"a":1}{']) {
      const response = await postEncrypted(`${server.url}/echo`, await sealed(text));
      expect({ text, status: response.status }).toEqual({ text, status: 400 });
      // Authenticated: the refusal is sealed under the request's kid.
      expect(response.headers.get('x-encryption')).toBe('JWE');
      expect(await errorOf(response)).toMatchObject({ type: 'entity.parse.failed', code: 'ERR_BODY_PARSE' });
    }
  });

  check(adapter, 'decrypted JSON nested too deep', async () => {
    // 20,000 levels in 40 KB: within the body limit, far past the default depth limit of 1,000.
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const response = await postEncrypted(`${server.url}/echo`, await sealed(deep));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ type: 'entity.parse.failed', code: 'ERR_JSON_TOO_DEEP' });
    const fine = `${'['.repeat(999)}${']'.repeat(999)}`;
    const answer = await postEncrypted(`${server.url}/echo`, await sealed(fine));
    expect(answer.status).toBe(200);
  });

  check(adapter, 'invalid UTF-8 in the plaintext', async () => {
    const response = await postEncrypted(
      `${server.url}/echo`,
      await sealed(Uint8Array.of(0x22, 0xff, 0xfe, 0x22)),
    );
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ type: 'entity.parse.failed', code: 'ERR_BODY_PARSE' });
  });

  check(adapter, 'top-level scalars passed on', async () => {
    for (const value of [null, 42, 'text', true]) {
      const response = await postEncrypted(`${server.url}/echo`, await sealed(JSON.stringify(value)));
      expect({ value, status: response.status }).toEqual({ value, status: 200 });
      expect(await joseOpenJson(KEY, await response.json())).toMatchObject({ body: value, encrypted: true });
      const plain = await fetch(`${server.url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(value),
      });
      expect(await plain.json()).toMatchObject({ body: value, encrypted: false });
    }
  });

  check(adapter, 'Content-Encoding on JSON', async () => {
    const envelope = JSON.stringify(await encryptJson({ a: 1 }, KEY, { kid: 'kid-a' }));
    for (const headers of [
      { 'content-type': 'application/json', 'x-encryption': 'JWE', 'content-encoding': 'gzip' },
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    ]) {
      const response = await fetch(`${server.url}/echo`, { method: 'POST', headers, body: envelope });
      expect(response.status).toBe(415);
      expect(await errorOf(response)).toMatchObject({
        type: 'encoding.unsupported',
        code: 'ERR_ENCODING_UNSUPPORTED',
      });
    }
  });

  check(adapter, 'missing Content-Type on an encrypted request', async () => {
    const envelope = JSON.stringify(await encryptJson({ untyped: true }, KEY, { kid: 'kid-a' }));
    const answer = await rawPost(
      `${server.url}/echo`,
      { 'x-encryption': 'JWE', 'content-length': String(Buffer.byteLength(envelope)) },
      async (body) => {
        body.write(envelope);
      },
    );
    expect(answer.status).toBe(200);
    expect(await joseOpenJson(KEY, JSON.parse(answer.text))).toMatchObject({ body: { untyped: true } });
  });

  describe('uploads', () => {
    check(adapter, 'upload metadata and file modes', async () => {
      const destMode = (await stat(server.dest)).mode & 0o777;
      const envelope = await encryptFile(PDF, KEY, { kid: 'kid-a' });
      const disk = await postEncrypted(`${server.url}/upload`, envelope);
      expect(disk.status).toBe(200);
      const stored = (await joseOpenJson(KEY, await disk.json())) as { path: string; mimetype: string };
      const memory = await postEncrypted(`${server.url}/upload-memory`, envelope);
      expect(memory.status).toBe(200);
      const kept = (await joseOpenJson(KEY, await memory.json())) as { mimetype: string };
      expect([stored.mimetype, kept.mimetype]).toEqual(['application/pdf', 'application/pdf']);
      expect(await readFile(stored.path)).toEqual(PDF);

      const form = new FormData();
      form.set('file', new Blob([PDF]), '../../../tmp/x');
      const multipart = await fetch(`${server.url}/upload`, { method: 'POST', body: form });
      expect(multipart.status).toBe(200);
      const plain = (await multipart.json()) as { path: string; mimetype: string; originalname: string };
      expect(plain).toMatchObject({ originalname: 'x', mimetype: 'application/pdf' });

      // Both files sit in the one private folder the adapter made inside dest; dest is untouched.
      expect(dirname(plain.path)).toBe(dirname(stored.path));
      expect(dirname(dirname(stored.path))).toBe(server.dest);
      expect((await stat(server.dest)).mode & 0o777).toBe(destMode);
      const entries = (await tree(server.dest)).filter((entry) => entry.path !== server.dest);
      expect(entries.length).toBeGreaterThanOrEqual(3);
      for (const entry of entries)
        expect({ ...entry, mode: entry.mode }).toEqual({ ...entry, mode: entry.dir ? 0o700 : 0o600 });
    });

    check(adapter, 'two files in the multipart field', async () => {
      const files = async () => (await tree(server.dest)).filter((entry) => !entry.dir).length;
      const before = await files();
      const fds = await openFds();
      for (let i = 0; i < 5; i++) {
        const chunks = multipartBody(
          [
            ['file', 'a.bin', 'application/octet-stream', Buffer.alloc(256 * 1024, 1)],
            ['file', 'b.bin', 'application/octet-stream', Buffer.alloc(1024, 2)],
          ],
          'twofiles',
        );
        const answer = await postMultipart(`${server.url}/upload`, chunks, 'twofiles');
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.text)).toMatchObject({
          error: { type: 'upload.invalid', code: 'ERR_UPLOAD_INVALID' },
        });
      }
      await vi.waitFor(async () => expect(await files()).toBe(before), { timeout: 10_000, interval: 50 });
      // In-process servers: no descriptor is left open for the abandoned parts (a little slack for sockets).
      await vi.waitFor(async () => expect(await openFds()).toBeLessThanOrEqual(fds + 2), {
        timeout: 10_000,
        interval: 50,
      });
    });

    check(adapter, 'truncated multipart body', async () => {
      const files = async () => (await tree(server.dest)).filter((entry) => !entry.dir).length;
      const before = await files();
      for (const route of ['/upload', '/upload-memory']) {
        const chunks = multipartBody(
          [['file', 'a.bin', 'application/pdf', Buffer.alloc(64 * 1024, 3)]],
          'cut',
          false,
        );
        const answer = await postMultipart(`${server.url}${route}`, chunks, 'cut');
        expect({ route, status: answer.status }).toEqual({ route, status: 400 });
        expect(JSON.parse(answer.text)).toMatchObject({
          error: { type: 'upload.invalid', code: 'ERR_UPLOAD_INVALID' },
        });
      }
      await vi.waitFor(async () => expect(await files()).toBe(before), { timeout: 10_000, interval: 50 });
    });

    check(adapter, 'bad file payload, disk and memory', async () => {
      for (const payload of ['{"file":"not base64!"}', '{"other":"QUJD"}', '[]']) {
        for (const route of ['/upload', '/upload-memory']) {
          const response = await postEncrypted(`${server.url}${route}`, await sealed(payload));
          expect({ payload, route, status: response.status }).toEqual({ payload, route, status: 400 });
          // The envelope authenticated: the refusal is sealed, as every other answer to it.
          expect(response.headers.get('x-encryption')).toBe('JWE');
          expect(await errorOf(response)).toMatchObject({
            type: 'upload.invalid',
            code: 'ERR_UPLOAD_INVALID',
          });
        }
      }
    });

    check(
      adapter,
      'plain multipart upload in bounded memory',
      async () => {
        const size = 96 * MiB;
        const baseline = process.memoryUsage.rss();
        let peak = baseline;
        const file = generatedFile(size, () => {
          peak = Math.max(peak, process.memoryUsage.rss());
        });
        async function* body() {
          yield* multipartBody(
            [['file', 'big.bin', 'application/octet-stream', new Uint8Array(0)]],
            'big',
            false,
          ).slice(0, 1);
          yield* file.chunks;
          yield Buffer.from('\r\n--big--\r\n');
        }
        const answer = await postMultipart(`${server.url}/upload`, body(), 'big');
        expect(answer.status).toBe(200);
        const stored = JSON.parse(answer.text) as { size: number; path: string };
        expect(stored.size).toBe(size);
        expect(sha256(await readFile(stored.path))).toBe(file.digest());
        // Holding the file (as a Web form parser does) would add its size and more.
        expect(peak - baseline).toBeLessThan(64 * MiB);
      },
      120_000,
    );
  });
}
