import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdir, readFile, stat } from 'node:fs/promises';
import { Agent, type IncomingMessage, request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Grant,
  grant,
  login,
  presignedForm,
  presignedPost,
  startBody,
  startTestService,
  startTransaction,
  type TestService,
  type Tokens,
} from './support/service.js';

const MAX = 4 * 2 ** 20;
/** The literal placeholder of the documented grant, not a template. */
const FILENAME = ['$', '{filename}'].join('');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
let t: TestService;
let alpha: Tokens;
let audioDir: string;

beforeAll(async () => {
  t = await startTestService({ maxFileBytes: MAX, accessTokenSeconds: 10 * 86_400 });
  alpha = await login(t.url, 'alpha');
  audioDir = join(t.docsDir, 'audio');
});
afterAll(() => t.close());

/** A presigned POST through `agent` (node:http), answering what the connection tests look at. */
async function rawPost(agent: Agent, data: Grant, name: string, bytes: Uint8Array) {
  const encoded = new Request(data.uploadData.url, {
    method: 'POST',
    body: presignedForm(data, name, bytes),
  });
  const body = Buffer.from(await encoded.arrayBuffer());
  const req = request(data.uploadData.url, {
    agent,
    method: 'POST',
    headers: { 'content-type': encoded.headers.get('content-type')!, 'content-length': body.length },
  });
  req.end(body);
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  let text = '';
  for await (const chunk of res) text += chunk;
  return { status: res.statusCode, connection: res.headers.connection, reusedSocket: req.reusedSocket, text };
}

/** A presigned POST's text before the file's bytes: every granted field, then the file part's head. */
function multipartHead(data: Grant, boundary: string, fileName: string): string {
  const part = (disposition: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n`;
  const fields = Object.entries(data.uploadData.fields).map(
    ([name, value]) => `${part(`name="${name}"`)}${value}\r\n`,
  );
  return `${fields.join('')}${part(`name="file"; filename="${fileName}"`)}`;
}

const partials = () => readdir(join(audioDir, '.partial')).catch(() => [] as string[]);

describe('upload grant (POST /v1/file-upload)', () => {
  it('answers the documented grant: url, key with the file name placeholder, x-amz-* fields, policy, signature', async () => {
    const data = await grant(t.url, alpha, 'grant-shape');
    expect(data.txn_id).toBe('grant-shape');
    expect(data.folderPath).toBe('grant-shape/');
    expect(data.uploadData.url).toBe(`${t.url}/storage/ekascribe-audio/`);
    const fields = data.uploadData.fields;
    expect(fields.key).toBe(`grant-shape/${FILENAME}`);
    for (const name of ['x-amz-algorithm', 'x-amz-credential', 'x-amz-date', 'x-amz-security-token'])
      expect(fields[name]).toEqual(expect.any(String));
    expect(fields['x-amz-signature']).toMatch(/^[0-9a-f]{64}$/);
    const policy = JSON.parse(Buffer.from(fields.policy!, 'base64').toString('utf8'));
    expect(Date.parse(policy.expiration) - t.clock.now).toBe(3600 * 1000);
    expect(policy.conditions).toContainEqual(['starts-with', '$key', 'grant-shape/']);
    expect(policy.conditions).toContainEqual(['content-length-range', 0, MAX]);
  });

  it('refuses a wrong action, an empty or unsafe txn_id, and no token', async () => {
    for (const query of [
      'txn_id=a&action=scribe',
      'txn_id=&action=ekascribe-v2',
      'txn_id=..&action=ekascribe-v2',
      'txn_id=a%2Fb&action=ekascribe-v2',
    ]) {
      const response = await fetch(`${t.url}/v1/file-upload?${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alpha.access_token}` },
      });
      expect(response.status).toBe(400);
    }
    expect(
      (await fetch(`${t.url}/v1/file-upload?txn_id=a&action=ekascribe-v2`, { method: 'POST' })).status,
    ).toBe(401);
  });

  it('assigns a txn_id when none is given, and takes the grant without action', async () => {
    const assigned = await fetch(`${t.url}/v1/file-upload?action=ekascribe-v2`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alpha.access_token}` },
    });
    expect(assigned.status).toBe(200);
    const body = (await assigned.json()) as { txn_id: string; folderPath: string };
    expect(body.txn_id).toMatch(/^txn-[0-9a-f-]{36}$/);
    expect(body.folderPath).toBe(`${body.txn_id}/`);
    const another = (await (
      await fetch(`${t.url}/v1/file-upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alpha.access_token}` },
      })
    ).json()) as { txn_id: string };
    expect(another.txn_id).not.toBe(body.txn_id);
  });
});

describe('presigned storage POST', () => {
  it('keeps the file at its key with 204, byte for byte, private to the service user', async () => {
    const data = await grant(t.url, alpha, 'store-ok');
    const bytes = randomBytes(300_000);
    const response = await presignedPost(data, 'visit.wav', bytes);
    expect(response.status).toBe(204);
    const path = join(audioDir, 'store-ok', 'visit.wav');
    expect(sha256(await readFile(path))).toBe(sha256(bytes));
    expect(await modeOf(path)).toBe(0o600);
    expect(await modeOf(join(audioDir, 'store-ok'))).toBe(0o700);
    expect(await modeOf(audioDir)).toBe(0o700);
    expect(await partials()).toEqual([]);
  });

  it('takes a file of exactly the policy maximum and refuses one byte more, leaving no file', async () => {
    const data = await grant(t.url, alpha, 'store-size');
    expect((await presignedPost(data, 'max.wav', randomBytes(MAX))).status).toBe(204);
    expect((await stat(join(audioDir, 'store-size', 'max.wav'))).size).toBe(MAX);
    const over = await presignedPost(data, 'over.wav', randomBytes(MAX + 1));
    expect(over.status).toBe(400);
    expect(await over.text()).toContain('<Code>EntityTooLarge</Code>');
    expect(await readdir(join(audioDir, 'store-size'))).toEqual(['max.wav']);
    expect(await partials()).toEqual([]);
  });

  it('answers 403 AccessDenied to an expired policy, and says to ask for a new grant', async () => {
    const data = await grant(t.url, alpha, 'store-expired');
    t.clock.now += 3600 * 1000;
    const response = await presignedPost(data, 'late.wav', randomBytes(1000));
    expect(response.status).toBe(403);
    const body = await response.text();
    expect(body).toContain('<Code>AccessDenied</Code>');
    expect(body).toMatch(/Policy expired.*new upload grant/);
    t.clock.now -= 1; // one millisecond before expiry the same grant works
    expect((await presignedPost(data, 'late.wav', randomBytes(1000))).status).toBe(204);
    t.clock.now += 1;
  });

  it('reads a refused body of a declared size to its end first: the client gets the 403 and keeps the connection', async () => {
    const data = await grant(t.url, alpha, 'store-drain');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const bytes = randomBytes(3 * 2 ** 20);
      t.clock.now += 3600 * 1000;
      const refused = await rawPost(agent, data, 'drain.wav', bytes);
      t.clock.now -= 3600 * 1000;
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('<Code>AccessDenied</Code>');
      expect(refused.connection).toBe('keep-alive');
      // The same connection takes the next upload: nothing of the refused body was left on it.
      const stored = await rawPost(agent, data, 'drain.wav', bytes);
      expect(stored).toMatchObject({ status: 204, reusedSocket: true });
      expect(sha256(await readFile(join(audioDir, 'store-drain', 'drain.wav')))).toBe(sha256(bytes));
      expect(await partials()).toEqual([]);
    } finally {
      agent.destroy();
    }
  });

  it('answers a refused body of more than 16 MiB at once, without reading it, and closes the connection', async () => {
    const data = await grant(t.url, alpha, 'store-huge');
    const boundary = 'hugeboundary';
    const url = new URL(data.uploadData.url);
    const socket = connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    t.clock.now += 3600 * 1000;
    try {
      // Declares 64 MiB and sends only the fields and the file part's first bytes.
      socket.write(
        `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${64 * 2 ** 20}\r\n\r\n` +
          multipartHead(data, boundary, 'huge.wav'),
      );
      socket.write(randomBytes(64 * 1024));
      await once(socket, 'end');
    } finally {
      t.clock.now -= 3600 * 1000;
      socket.destroy();
    }
    const answer = Buffer.concat(received).toString('latin1');
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer).toContain('<Code>AccessDenied</Code>');
    expect(await readdir(join(audioDir, 'store-huge')).catch(() => [])).toEqual([]);
  });

  it('answers 403 to a forged signature, an altered policy, a key outside the folder and an unsigned field', async () => {
    const data = await grant(t.url, alpha, 'store-forged');
    const other = await grant(t.url, alpha, 'store-other');
    const fields = data.uploadData.fields;
    const policy = JSON.parse(Buffer.from(fields.policy!, 'base64').toString('utf8'));
    policy.conditions = policy.conditions.map((item: unknown) =>
      Array.isArray(item) && item[0] === 'content-length-range' ? ['content-length-range', 0, 2 ** 40] : item,
    );
    const attempts: Record<string, string>[] = [
      { ...fields, 'x-amz-signature': '0'.repeat(64) },
      { ...fields, 'x-amz-signature': fields['x-amz-signature']!.slice(0, 40) },
      { ...fields, policy: Buffer.from(JSON.stringify(policy)).toString('base64') },
      { ...fields, key: `store-other/${FILENAME}` },
      { ...fields, key: 'store-other/x.wav' },
      { ...fields, key: 'store-forged/sub/x.wav' },
      { ...fields, key: `store-forged/../store-other/${FILENAME}` },
      { ...fields, 'x-amz-meta-txn-id': 'store-other' },
      { ...fields, 'x-amz-meta-extra': 'not in the policy' },
      { ...other.uploadData.fields, policy: fields.policy! },
      Object.fromEntries(Object.entries(fields).filter(([name]) => name !== 'policy')),
    ];
    for (const attempt of attempts) {
      const response = await presignedPost(data, 'x.wav', randomBytes(100), attempt);
      expect(response.status, JSON.stringify(attempt)).toBe(403);
      expect(await response.text()).toContain('AccessDenied');
    }
    for (const folder of ['store-forged', 'store-other'])
      expect(await readdir(join(audioDir, folder)).catch(() => [])).toEqual([]);
  });

  it('takes the key as the literal file name template or as the explicit folderPath + name', async () => {
    const data = await grant(t.url, alpha, 'store-keys');
    const templated = randomBytes(1000);
    const explicit = randomBytes(2000);
    expect((await presignedPost(data, 'templated.wav', templated)).status).toBe(204);
    const fields = { ...data.uploadData.fields, key: `${data.folderPath}explicit.wav` };
    // With an explicit key the file part's own name does not matter, as in object storage.
    expect((await presignedPost(data, 'blob', explicit, fields)).status).toBe(204);
    expect(sha256(await readFile(join(audioDir, 'store-keys', 'templated.wav')))).toBe(sha256(templated));
    expect(sha256(await readFile(join(audioDir, 'store-keys', 'explicit.wav')))).toBe(sha256(explicit));
    const transaction = t.service.workflow.transactions.get('store-keys')!;
    expect([...transaction.files.keys()].sort()).toEqual(['explicit.wav', 'templated.wav']);
  });

  it('refuses uploads into a transaction that was started, and stores none of the bytes', async () => {
    const data = await grant(t.url, alpha, 'store-closed');
    expect((await presignedPost(data, 'a.wav', randomBytes(100))).status).toBe(204);
    expect((await startTransaction(t.url, alpha, 'store-closed', startBody(data, ['a.wav']))).status).toBe(
      201,
    );
    const late = await presignedPost(data, 'b.wav', randomBytes(100));
    expect(late.status).toBe(403);
    expect(await late.text()).toMatch(/AccessDenied.*started/s);
    const replaced = await presignedPost(data, 'a.wav', randomBytes(100));
    expect(replaced.status).toBe(403);
    expect(await readdir(join(audioDir, 'store-closed'))).toEqual(['a.wav']);
    expect((await stat(join(audioDir, 'store-closed', 'a.wav'))).size).toBe(100);
    expect(await partials()).toEqual([]);
  });

  it('refuses a file name that is not one path segment', async () => {
    const data = await grant(t.url, alpha, 'store-names');
    for (const name of ['..', '.']) {
      const response = await presignedPost(data, name, randomBytes(10));
      expect(response.status).toBe(400);
    }
    expect(await readdir(join(audioDir, 'store-names')).catch(() => [])).toEqual([]);
  });

  it('takes a 96 MiB file sent in 1 MiB writes and keeps it whole', async () => {
    const big = await startTestService({ maxFileBytes: 96 * 2 ** 20 });
    try {
      const tokens = await login(big.url, 'alpha');
      const bigGrant = await grant(big.url, tokens, 'store-large');
      const chunk = randomBytes(2 ** 20);
      const hash = createHash('sha256');
      const boundary = `----b${randomBytes(8).toString('hex')}`;
      const head = Object.entries(bigGrant.uploadData.fields)
        .map(
          ([name, value]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        )
        .join('');
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(bigGrant.uploadData.url, {
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.write(
          `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="long.wav"\r\n\r\n`,
        );
        let sent = 0;
        const pump = () => {
          while (sent < 96) {
            chunk[0] = sent; // every MiB differs
            hash.update(chunk);
            sent++;
            if (!req.write(chunk)) {
              req.once('drain', pump);
              return;
            }
          }
          req.end(`\r\n--${boundary}--\r\n`);
        };
        pump();
      });
      expect(status).toBe(204);
      const path = join(big.docsDir, 'audio', 'store-large', 'long.wav');
      expect((await stat(path)).size).toBe(96 * 2 ** 20);
      const kept = createHash('sha256')
        .update(await readFile(path))
        .digest('hex');
      expect(kept).toBe(hash.digest('hex'));
    } finally {
      await big.close();
    }
  });

  it('keeps a partial upload private while it arrives and leaves no file when the client goes away', async () => {
    const data = await grant(t.url, alpha, 'store-partial');
    const boundary = 'partialboundary';
    const req = request(data.uploadData.url, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    req.on('error', () => {});
    req.write(multipartHead(data, boundary, 'cut.wav'));
    req.write(randomBytes(256 * 1024));
    await expect.poll(partials).toHaveLength(1);
    const [partial] = await partials();
    await expect.poll(async () => (await stat(join(audioDir, '.partial', partial!))).size).toBeGreaterThan(0);
    expect(await modeOf(join(audioDir, '.partial', partial!))).toBe(0o600);
    expect(await modeOf(join(audioDir, '.partial'))).toBe(0o700);
    req.destroy();
    await expect.poll(partials).toEqual([]);
    expect(await readdir(join(audioDir, 'store-partial')).catch(() => [])).toEqual([]);
  });
});
