// The client conformance suite: what every client adapter (the fetch wrapper, ky 1 and 2, undici's
// request and fetch, axios's http and fetch adapters) must do on the wire. Each adapter supplies a
// small driver (see ClientDriver, and the shared ones in ../client-drivers); the peer it talks to
// is a seam (see ConformancePeer): a real server on 127.0.0.1 by default, or a mock such as
// @jwe-transport/testing's MSW handlers. What is truly adapter-specific stays in that adapter's own
// tests.
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANGUP_KEY, REFUSAL, useHangupFixture } from '../client/hangup-server.js';
import { OTHER_KEY, SHARED_KEY } from '../client/jwe-server.js';
import { MiB } from '../client/large-file.js';
import { sha256 } from '../client/recording-server.js';
import { type ConformancePeer, type PeerHandle, realServerPeer } from './peer.js';

export type { ConformancePeer, PeerHandle, PeerRecord } from './peer.js';
export { realServerPeer } from './peer.js';

/** A request body, described so that each driver hands it to its client in that client's own way. */
export type ConformanceBody =
  | { kind: 'json'; value: Record<string, unknown> }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'blob'; blob: Blob }
  | { kind: 'form'; file: Blob; name: string }
  /** A file on disk: the driver opens it as its client reads files (fileFromPath, openAsBlob). */
  | { kind: 'disk'; path: string; asForm: boolean };

/** What came back: the status and the (decrypted) JSON body, for 2xx and error answers alike. */
export interface ConformanceAnswer {
  status: number;
  json: unknown;
  /** Whether the client says it decrypted the answer (`wasDecrypted`, or the X-JWE-Decrypted header). */
  decrypted: boolean;
}

export interface ClientOptions {
  key: string;
  kid?: string;
  origin: string;
  streamThreshold?: number;
  /** The peer's own undici dispatcher (a MockAgent), for clients that take one. */
  dispatcher?: unknown;
}

/** One way a client sends a failed call again: its own option, a plugin, a hand-written replay. */
export type RetryMode = string;

export interface DriverClient {
  /** POSTs `body` to `url`; a non-2xx answer is returned, an error from the library thrown. */
  post(url: string, body: ConformanceBody, options?: { retry?: RetryMode }): Promise<ConformanceAnswer>;
  close?(): Promise<void>;
}

export interface ClientDriver {
  /** Shown in test names: "ky 2.x", "axios (http adapter)". */
  name: string;
  /** Builds a client sealing with `options`; retries (when asked) retry a 503 once, at once. */
  create(options: ClientOptions): DriverClient | Promise<DriverClient>;
  /** The retry mechanisms this client has, each tested with every re-readable body. */
  retryModes: readonly RetryMode[];
}

/** The stable `code` of a jwe-transport error, wherever the HTTP library put it (itself or a cause). */
export function jweCodeOf(error: unknown): string | undefined {
  for (let at = error, depth = 0; at && depth < 5; at = (at as { cause?: unknown }).cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && /^ERR_(JWE|KEY)_/.test(code)) return code;
  }
  return undefined;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`the call succeeded: ${JSON.stringify(value)}`);
    },
    (reason: unknown) => reason,
  );
}

const PATIENT = { aadhaar_number: '999941057058', name: 'Asha', tags: ['a', 'b'] };
const FILE_BYTES = new Uint8Array(48 * 1024).map((_, index) => (index * 31 + 7) % 251);
const FILE = { size: FILE_BYTES.length, sha256: sha256(FILE_BYTES) };

/** The bodies that can be read again, so that every attempt is sealed from the caller's plaintext. */
function rereadableBodies(diskPath: () => string) {
  return [
    {
      label: 'JSON',
      make: (): ConformanceBody => ({ kind: 'json', value: PATIENT }),
      expect: { json: PATIENT },
    },
    {
      label: 'bytes',
      make: (): ConformanceBody => ({ kind: 'bytes', bytes: FILE_BYTES }),
      expect: { file: FILE },
    },
    {
      label: 'a Blob',
      make: (): ConformanceBody => ({ kind: 'blob', blob: new Blob([FILE_BYTES]) }),
      expect: { file: FILE },
    },
    {
      label: 'a FormData file',
      make: (): ConformanceBody => ({ kind: 'form', file: new Blob([FILE_BYTES]), name: 'scan.bin' }),
      expect: { file: FILE },
    },
    {
      label: 'a file from disk',
      make: (): ConformanceBody => ({ kind: 'disk', path: diskPath(), asForm: true }),
      expect: { file: FILE },
    },
  ] as const;
}

/** The IV of an envelope as it arrived, to tell two sealings apart. */
function ivOf(wire: string | undefined): string {
  expect(wire, 'the attempt arrived buffered').toBeTypeOf('string');
  return (JSON.parse(wire!) as { iv: string }).iv;
}

/**
 * Registers the suite for `driver` against `peer`. Cases that need a real socket (a server that
 * hangs up mid-upload, chunked transfer-encoding on the wire) run only when the peer has one.
 */
export function clientConformance(driver: ClientDriver, peer: ConformancePeer = realServerPeer): void {
  const on = peer.realSocket ? '' : ` against ${peer.name}`;
  describe(`client conformance: ${driver.name}${on}`, () => {
    let server: PeerHandle;
    let client: DriverClient;
    let diskFile: string;
    let route = 0;
    const next = (name: string) => `${server.url}/${name}-${++route}`;

    beforeAll(async () => {
      server = await peer.start();
      client = await driver.create({
        key: SHARED_KEY,
        kid: 'client-1',
        origin: server.origin,
        ...(server.dispatcher === undefined ? {} : { dispatcher: server.dispatcher }),
      });
      diskFile = join(tmpdir(), `jwe-conformance-${process.pid}-${driver.name.replace(/\W+/g, '-')}.bin`);
      await writeFile(diskFile, FILE_BYTES);
    });
    afterAll(async () => {
      await client?.close?.();
      await server?.close();
    });

    const requestsTo = (url: string) =>
      server.requests.filter((record) => new URL(url).pathname === record.path);

    describe('sealing and opening', () => {
      it('seals a JSON body (the route reads the plaintext, the wire carries none) and opens the answer', async () => {
        const url = next('json');
        const answer = await client.post(url, { kind: 'json', value: PATIENT });
        expect(answer).toMatchObject({
          status: 200,
          decrypted: true,
          json: { encrypted: true, json: PATIENT },
        });
        const [record] = requestsTo(url);
        expect(record?.headers['x-encryption']).toBe('JWE');
        expect(record?.headers['content-type']).toMatch(/^application\/json/);
        expect(record?.wire).not.toContain(PATIENT.aadhaar_number);
        expect(JSON.parse(record!.wire!)).toMatchObject({ kid: 'client-1' });
      });

      it('seals a file as {"file"} and opens the answer', async () => {
        const url = next('file');
        const answer = await client.post(url, { kind: 'form', file: new Blob([FILE_BYTES]), name: 'a.bin' });
        expect(answer).toMatchObject({ status: 200, decrypted: true, json: { encrypted: true, file: FILE } });
      });

      it('opens an error answer sealed by the server (a 422 with its decrypted body)', async () => {
        const answer = await client.post(`${next('unprocessable')}?status=422`, {
          kind: 'json',
          value: PATIENT,
        });
        expect(answer).toMatchObject({
          status: 422,
          decrypted: true,
          json: { encrypted: true, json: PATIENT },
        });
      });
    });

    describe('fail closed', () => {
      it('a plain 2xx answer to a sealed request is ERR_JWE_RESPONSE_NOT_ENCRYPTED', async () => {
        const error = await rejection(
          client.post(`${next('html')}?reply=html`, { kind: 'json', value: PATIENT }),
        );
        expect(jweCodeOf(error), String(error)).toBe('ERR_JWE_RESPONSE_NOT_ENCRYPTED');
      });

      it('an answer sealed under another key is ERR_JWE_DECRYPTION_FAILED', async () => {
        const error = await rejection(
          client.post(`${next('wrongkey')}?reply=wrongkey`, { kind: 'json', value: PATIENT }),
        );
        expect(jweCodeOf(error), String(error)).toBe('ERR_JWE_DECRYPTION_FAILED');
        expect(String(error)).not.toContain(OTHER_KEY);
        expect(String(error)).not.toContain(SHARED_KEY);
      });

      it('X-Encryption: JWE over a body that is no envelope is ERR_JWE_INVALID', async () => {
        const error = await rejection(
          client.post(`${next('garbage')}?reply=marked-garbage`, { kind: 'json', value: PATIENT }),
        );
        expect(jweCodeOf(error), String(error)).toBe('ERR_JWE_INVALID');
      });
    });

    // A client with no way to send a call again (undici's fetch: its body is a one-shot stream, so
    // jweInterceptor refuses a second attempt) has no retry cases, rather than skipped ones.
    if (driver.retryModes.length === 0) return;
    describe('retries and replays: every attempt is sealed afresh from the caller’s plaintext', () => {
      for (const mode of driver.retryModes) {
        for (const body of rereadableBodies(() => diskFile)) {
          it(`${mode}, ${body.label}: the route sees the original on both attempts, under two IVs`, async () => {
            const url = `${next('retry')}?fail=1`;
            const answer = await client.post(url, body.make(), { retry: mode });
            expect(answer).toMatchObject({
              status: 200,
              decrypted: true,
              json: { encrypted: true, ...body.expect },
            });
            const attempts = requestsTo(url);
            expect(attempts).toHaveLength(2);
            for (const attempt of attempts) {
              expect(attempt.encrypted).toBe(true);
              expect(attempt).toMatchObject(body.expect);
            }
            expect(ivOf(attempts[0]!.wire)).not.toBe(ivOf(attempts[1]!.wire));
          });
        }
      }
    });
  });

  if (!peer.realSocket) return;
  describe(`client conformance: ${driver.name}, an upload from disk refused by a server that then hangs up (real socket only)`, () => {
    const fixture = useHangupFixture();
    const TRIES = 5;
    let client: DriverClient;
    beforeAll(async () => {
      client = await driver.create({
        key: HANGUP_KEY,
        kid: 'kid-1',
        origin: fixture.server.origin,
        streamThreshold: MiB,
      });
    });
    afterAll(async () => {
      await client?.close?.();
    });

    it('is the 413 with its decrypted body, every time, not EPIPE', async () => {
      const { server, file } = fixture;
      for (let attempt = 0; attempt < TRIES; attempt++) {
        const answer = await client.post(`${server.url}/upload`, {
          kind: 'disk',
          path: file.path,
          asForm: true,
        });
        expect(answer).toEqual({ status: 413, decrypted: true, json: REFUSAL });
      }
      expect(server.refused).toBe(TRIES);
      expect(server.lastHeaders?.['transfer-encoding']).toBe('chunked');
    });
  });
}
