import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJweFetch } from '@jwe-transport/client-core';
import { deriveKey, encrypt, encryptFile, encryptJson } from '@jwe-transport/codec';
import { type ChannelRecording, recordChannel } from '@jwe-transport/test-support/diagnostics';
import {
  DIAGNOSTICS_KEYS,
  expectOpenAndSealTraced,
} from '@jwe-transport/test-support/diagnostics/server-events';
import { serveFetch as serveLocally } from '@jwe-transport/test-support/server-conformance/serve-fetch';
import { afterEach, describe, expect, it } from 'vitest';
import { withJwe } from '../src/index.js';
import { withJweUpload } from '../src/node/index.js';

// Real HTTP on 127.0.0.1: the Web handler `withJwe` served by @hono/node-server, called through
// client-core's fetch wrapper (or plain fetch for envelopes no client would send).
const KEY = 'abcdefghijklmnop';
const OTHER_KEY = 'Q7w!x9z#m2p$r5t&';
const KID = 'partner-a';
const SECRET = 'plaintext-marker-6f1c';

const running: { close(): Promise<void> }[] = [];

// Node's own Request and Response stay in place (overrideGlobalObjects: false): the fetch wrapper
// runs in this process too and builds genuine Responses.
const serveFetch = (fetch: (request: Request) => Response | Promise<Response>) =>
  serveLocally(fetch, { overrideGlobalObjects: false });
const recordings: ChannelRecording[] = [];
afterEach(async () => {
  for (const recording of recordings.splice(0)) recording.stop();
  for (const server of running.splice(0)) await server.close();
});

function record() {
  const open = recordChannel('jwe-transport:open');
  const seal = recordChannel('jwe-transport:seal');
  recordings.push(open, seal);
  return { open, seal };
}

async function serveEcho(keys: Record<string, string> = { [KID]: KEY }) {
  const handler = withJwe(async (request: Request) => Response.json({ echo: await request.json() }), {
    keys,
  });
  const server = await serveFetch(handler);
  running.push(server);
  return server.url;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Neither shared key (as text, hex, base64 or base64url of the derived key) nor the plaintext. */
function expectNoSecrets(text: string) {
  for (const key of [KEY, OTHER_KEY]) {
    const raw = deriveKey(key);
    for (const form of [
      key,
      hex(raw),
      Buffer.from(raw).toString('base64'),
      Buffer.from(raw).toString('base64url'),
    ]) {
      expect(text).not.toContain(form);
    }
  }
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain(Buffer.from(SECRET).toString('base64'));
}

const names = (recording: ChannelRecording, side: 'server' | 'client') =>
  recording.events.filter((e) => e.context.side === side).map((e) => e.event);
const last = (recording: ChannelRecording, side: 'server' | 'client') =>
  recording
    .contexts()
    .filter((c) => c.side === side)
    .at(-1);

async function postRaw(url: string, body: string) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
    body,
  });
}

describe('jwe-transport:open and jwe-transport:seal over real HTTP', () => {
  it('publishes a sealed answer, a refusal before authentication and a sealed refusal (the shared check)', async () => {
    const handler = withJwe(async (request: Request) => Response.json(await request.json()), {
      keys: DIAGNOSTICS_KEYS,
      logger: false,
    });
    const server = await serveFetch(handler);
    running.push(server);
    await expectOpenAndSealTraced(server.url);
  });

  it('traces a sealed round trip on both sides: client seal, server open, server seal, client open', async () => {
    const url = await serveEcho();
    const { open, seal } = record();
    const jweFetch = createJweFetch({ key: KEY, kid: KID });
    const sent = JSON.stringify({ note: SECRET });
    const response = await jweFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: sent,
    });
    expect(await response.json()).toEqual({ echo: { note: SECRET } });

    const clientSeal = last(seal, 'client');
    expect(clientSeal).toMatchObject({
      operation: 'seal',
      side: 'client',
      kid: KID,
      outcome: 'sealed',
      plaintextBytes: Buffer.byteLength(sent),
      code: undefined,
    });
    const serverOpen = last(open, 'server');
    expect(serverOpen).toMatchObject({
      operation: 'open',
      side: 'server',
      kid: KID,
      outcome: 'opened',
      plaintextBytes: Buffer.byteLength(sent),
      // What the client sealed is what the server received.
      envelopeBytes: clientSeal?.envelopeBytes,
    });
    expect(serverOpen?.envelopeBytes).toBeGreaterThan(Buffer.byteLength(sent));
    const answer = JSON.stringify({ echo: { note: SECRET } });
    expect(last(seal, 'server')).toMatchObject({
      side: 'server',
      kid: KID,
      outcome: 'sealed',
      plaintextBytes: Buffer.byteLength(answer),
    });
    const serverSealBytes = last(seal, 'server')?.envelopeBytes;
    expect(last(open, 'client')).toMatchObject({
      side: 'client',
      kid: KID,
      outcome: 'opened',
      plaintextBytes: Buffer.byteLength(answer),
      envelopeBytes: serverSealBytes,
    });
    // The promise-returning operations end as tracePromise does; the server seals synchronously (Node).
    expect(names(open, 'server')).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(names(open, 'client')).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(names(seal, 'client')).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(names(seal, 'server')).toEqual(['start', 'end']);
    expectNoSecrets(open.serialized() + seal.serialized());
  });

  it('traces a request sealed with the wrong key as refused with ERR_JWE_DECRYPTION_FAILED and its kid', async () => {
    const url = await serveEcho();
    const { open } = record();
    const jweFetch = createJweFetch({ key: OTHER_KEY, kid: KID });
    const response = await jweFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ note: SECRET }),
    });
    expect(response.status).toBe(400);
    expect(names(open, 'server')).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    const error = open.events.find((e) => e.event === 'error');
    expect(error?.context).toMatchObject({
      side: 'server',
      kid: KID,
      outcome: 'refused',
      code: 'ERR_JWE_DECRYPTION_FAILED',
      plaintextBytes: undefined,
      error: { code: 'ERR_JWE_DECRYPTION_FAILED', status: 400 },
    });
    expect(error?.context.envelopeBytes).toBeGreaterThan(0);
    expectNoSecrets(open.serialized());
  });

  it('traces an unknown kid as ERR_KEY_UNKNOWN, with the kid cut to 64 characters', async () => {
    const url = await serveEcho();
    const { open } = record();
    const longKid = `made-up-${'x'.repeat(200)}`;
    const response = await postRaw(
      url,
      JSON.stringify(await encryptJson({ note: SECRET }, KEY, { kid: longKid })),
    );
    expect(response.status).toBe(400);
    const context = last(open, 'server');
    expect(context).toMatchObject({ outcome: 'refused', code: 'ERR_KEY_UNKNOWN' });
    expect(context?.kid).toBe(longKid.slice(0, 64));
    expectNoSecrets(open.serialized());
  });

  it('traces a malformed envelope as ERR_JWE_INVALID, with no kid when none was readable', async () => {
    const url = await serveEcho();
    const { open } = record();
    const good = await encryptJson({ note: SECRET }, KEY, { kid: KID });
    const response = await postRaw(url, JSON.stringify({ ...good, iv: `${good.iv}=` }));
    expect(response.status).toBe(400);
    expect(last(open, 'server')).toMatchObject({ outcome: 'refused', code: 'ERR_JWE_INVALID' });
    expect(open.events.map((e) => e.event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
  });

  it('traces a response sealed under another key as refused on the client side', async () => {
    const server = await serveFetch(async () =>
      Response.json(await encrypt(JSON.stringify({ note: SECRET }), OTHER_KEY, { kid: 'their-kid' }), {
        headers: { 'x-encryption': 'JWE' },
      }),
    );
    running.push(server);
    const { open } = record();
    const jweFetch = createJweFetch({ key: KEY, kid: KID });
    await expect(jweFetch(server.url, { method: 'POST', body: '{}' })).rejects.toMatchObject({
      code: 'ERR_JWE_DECRYPTION_FAILED',
    });
    expect(names(open, 'client')).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(last(open, 'client')).toMatchObject({
      side: 'client',
      kid: 'their-kid',
      outcome: 'refused',
      code: 'ERR_JWE_DECRYPTION_FAILED',
    });
    expectNoSecrets(open.serialized());
  });

  it('traces a response under an unknown kid, and a malformed response, as refused on the client side', async () => {
    const good = await encrypt(JSON.stringify({ note: SECRET }), KEY, { kid: 'retired-kid' });
    const answers = [good, { ...good, iv: `${good.iv}=` }];
    const server = await serveFetch(async () =>
      Response.json(answers.shift(), { headers: { 'x-encryption': 'JWE' } }),
    );
    running.push(server);
    const { open } = record();
    // A keyring resolver that knows only KID: the answer's kid is unknown to it.
    const jweFetch = createJweFetch({ key: (kid) => (kid === KID ? KEY : undefined), kid: KID });
    await expect(jweFetch(server.url, { method: 'POST', body: '{}' })).rejects.toMatchObject({
      code: 'ERR_KEY_UNKNOWN',
    });
    expect(last(open, 'client')).toMatchObject({
      side: 'client',
      kid: 'retired-kid',
      outcome: 'refused',
      code: 'ERR_KEY_UNKNOWN',
    });
    await expect(jweFetch(server.url, { method: 'POST', body: '{}' })).rejects.toMatchObject({
      code: 'ERR_JWE_INVALID',
    });
    expect(last(open, 'client')).toMatchObject({
      side: 'client',
      outcome: 'refused',
      code: 'ERR_JWE_INVALID',
    });
    expect(open.contexts().filter((c) => c.side === 'client')).toHaveLength(2);
    expectNoSecrets(open.serialized());
  });

  it('reaches a subscriber of one sub-channel only (no TracingChannel-wide hasSubscribers needed)', async () => {
    const { channel } = await import('node:diagnostics_channel');
    const url = await serveEcho();
    const errors: Record<string, unknown>[] = [];
    const onError = (message: unknown) => errors.push({ ...(message as object) });
    channel('tracing:jwe-transport:open:error').subscribe(onError);
    try {
      const jweFetch = createJweFetch({ key: OTHER_KEY, kid: KID });
      await jweFetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    } finally {
      channel('tracing:jwe-transport:open:error').unsubscribe(onError);
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ side: 'server', kid: KID, code: 'ERR_JWE_DECRYPTION_FAILED' });
  });

  it('traces a streamed upload to disk: opened with the file size, or refused with its code and kid', async () => {
    const dest = await mkdtemp(join(tmpdir(), 'jwe-trace-upload-'));
    try {
      const handler = withJweUpload((_request, file) => Response.json({ size: file.size }), {
        keys: { [KID]: KEY },
        dest,
      });
      const server = await serveFetch(handler);
      running.push(server);
      const { open } = record();
      const file = new TextEncoder().encode(`${SECRET} in a file`);
      const upload = async (key: string) =>
        postRaw(server.url, JSON.stringify(await encryptFile(file, key, { kid: KID })));

      expect((await upload(KEY)).status).toBe(200);
      expect(last(open, 'server')).toMatchObject({
        kid: KID,
        outcome: 'opened',
        streamed: true,
        plaintextBytes: file.byteLength,
      });
      expect((await upload(OTHER_KEY)).status).toBe(400);
      expect(last(open, 'server')).toMatchObject({
        kid: KID,
        outcome: 'refused',
        streamed: true,
        code: 'ERR_JWE_DECRYPTION_FAILED',
      });
      expectNoSecrets(open.serialized());
    } finally {
      await rm(dest, { recursive: true, force: true });
    }
  });
});
