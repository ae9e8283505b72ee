import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJweHttp } from '../../src/index.js';
import type { TestClient } from './clients.js';
import { recordWire } from './wire.js';

/*
 * What the kit itself promises, per client, against the MSW handlers in Node (setupServer): what a
 * resolver sees of a sealed JSON request and of a file upload (small and streamed), the answer on
 * the wire sealed under the request's kid, fail-closed on plain answers from the kit's
 * `responses: 'never'` and from a plain MSW handler, and a wrong key refused with our servers' 400.
 * The client conformance suite (conformance-msw.test.ts) covers the rest, a sealed 422 among it.
 * The wire is recorded to show what actually travelled.
 * Each test file that calls this gets its own MSW server.
 */

const KID = 'kit-2026';
const KEY = 'sixteen-chars-ky';
const WRONG_KEY = 'another-16-chars';
const API = 'https://api.example.test';

const looksSealed = (body: string) => {
  const envelope = JSON.parse(body) as Record<string, unknown>;
  return Object.keys(envelope).sort();
};

export function describeClientCases(
  clients: Record<string, (keys: { key: string; kid: string }) => TestClient>,
): void {
  const jweHttp = createJweHttp({ keys: { [KID]: KEY } });
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  const CLIENTS = clients;

  describe.each(Object.keys(CLIENTS))('%s against createJweHttp in Node', (name) => {
    const client = CLIENTS[name]!({ key: KEY, kid: KID });

    it('seals the JSON it sends; the resolver reads the plaintext and the opened headers', async () => {
      const seen: unknown[] = [];
      server.use(
        jweHttp.post(`${API}/v1/patients`, async ({ request, jwe }) => {
          seen.push({
            body: await request.json(),
            encryption: request.headers.get('x-encryption'),
            length: request.headers.get('content-length'),
            jwe,
          });
          return HttpResponse.json({ id: 'p-1' }, { status: 201 });
        }),
      );
      const wire = recordWire(server);
      const outcome = await client.postJson(`${API}/v1/patients`, { aadhaar_number: '999941057058' });
      await wire.settled();
      wire.stop();

      expect(seen).toEqual([
        {
          body: { aadhaar_number: '999941057058' },
          encryption: null,
          length: String(JSON.stringify({ aadhaar_number: '999941057058' }).length),
          jwe: { encrypted: true, kid: KID, file: false },
        },
      ]);
      expect(wire.requests).toHaveLength(1);
      expect(wire.requests[0]!.encryption).toBe('JWE');
      expect(wire.requests[0]!.body).not.toContain('999941057058');
      expect(looksSealed(wire.requests[0]!.body)).toEqual(['ciphertext', 'iv', 'kid', 'protected', 'tag']);
      expect(outcome).toEqual({ kind: 'answer', status: 201, body: { id: 'p-1' } });
    });

    it('opens the sealed answer: it left sealed under the request kid', async () => {
      server.use(
        jweHttp.post(`${API}/v1/echo`, async ({ request }) =>
          HttpResponse.json({ echo: await request.json() }),
        ),
      );
      const wire = recordWire(server);
      const outcome = await client.postJson(`${API}/v1/echo`, { secret: 'plain-text-value' });
      await wire.settled();
      wire.stop();

      expect(outcome).toEqual({
        kind: 'answer',
        status: 200,
        body: { echo: { secret: 'plain-text-value' } },
      });
      expect(wire.responses).toHaveLength(1);
      expect(wire.responses[0]!.encryption).toBe('JWE');
      expect(wire.responses[0]!.body).not.toContain('plain-text-value');
      expect((JSON.parse(wire.responses[0]!.body) as { kid: string }).kid).toBe(KID);
    });

    it('fails closed on a plain 2xx answer to a sealed request', async () => {
      // A handler that answers in clear, as a misconfigured server or a plain MSW handler would.
      const plainAnswers = createJweHttp({ keys: { [KID]: KEY }, responses: 'never' });
      server.use(plainAnswers.post(`${API}/v1/patients`, () => HttpResponse.json({ id: 'p-1' })));
      const outcome = await client.postJson(`${API}/v1/patients`, { aadhaar_number: '999941057058' });
      expect(outcome).toMatchObject({ kind: 'error', code: 'ERR_JWE_RESPONSE_NOT_ENCRYPTED', status: 200 });
    });

    it('fails closed on a plain MSW http handler answering a sealed request', async () => {
      server.use(http.post(`${API}/v1/patients`, () => HttpResponse.json({ id: 'p-1' })));
      const outcome = await client.postJson(`${API}/v1/patients`, { aadhaar_number: '999941057058' });
      expect(outcome).toMatchObject({ kind: 'error', code: 'ERR_JWE_RESPONSE_NOT_ENCRYPTED' });
    });

    it('delivers a sealed file upload to the resolver as bytes, without a name', async () => {
      const bytes = new Uint8Array(70_000).map((_, i) => (i * 31 + 7) % 256);
      const seen: unknown[] = [];
      server.use(
        jweHttp.post(`${API}/mr/api/v2/docs`, async ({ request, jwe }) => {
          const received = new Uint8Array(await request.arrayBuffer());
          seen.push({
            jwe,
            type: request.headers.get('content-type'),
            length: request.headers.get('content-length'),
            same: Buffer.compare(received, bytes) === 0,
          });
          return HttpResponse.json({ size: received.length });
        }),
      );
      const wire = recordWire(server);
      const outcome = await client.postFile(`${API}/mr/api/v2/docs`, bytes, 'scan.pdf');
      await wire.settled();
      wire.stop();

      expect(seen).toEqual([
        {
          jwe: { encrypted: true, kid: KID, file: true },
          type: 'application/octet-stream',
          length: String(bytes.length),
          same: true,
        },
      ]);
      expect(outcome).toEqual({ kind: 'answer', status: 200, body: { size: bytes.length } });
      expect(wire.requests[0]!.encryption).toBe('JWE');
      expect(wire.requests[0]!.body).not.toContain('scan.pdf');
    });

    it('takes a file above the stream threshold (9 MiB, sealed as a stream) as bytes too', async () => {
      const bytes = new Uint8Array(9 * 1024 * 1024).map((_, i) => (i % 253) + 1);
      let received: Uint8Array | undefined;
      server.use(
        jweHttp.post(`${API}/mr/api/v2/docs`, async ({ request }) => {
          received = new Uint8Array(await request.arrayBuffer());
          return HttpResponse.json({ size: received.length });
        }),
      );
      const outcome = await client.postFile(`${API}/mr/api/v2/docs`, bytes, 'big.bin');
      expect(outcome).toEqual({ kind: 'answer', status: 200, body: { size: bytes.length } });
      expect(received && Buffer.compare(received, bytes)).toBe(0);
    });

    it('is refused with 400 ERR_JWE_DECRYPTION_FAILED under a wrong key; the resolver never runs', async () => {
      let called = false;
      server.use(
        jweHttp.post(`${API}/v1/patients`, () => {
          called = true;
          return HttpResponse.json({ id: 'p-1' });
        }),
      );
      const wrong = CLIENTS[name]!({ key: WRONG_KEY, kid: KID });
      const outcome = await wrong.postJson(`${API}/v1/patients`, { aadhaar_number: '999941057058' });
      expect(outcome).toMatchObject({
        kind: 'answer',
        status: 400,
        body: { error: { type: 'jwe.decrypt.failed', code: 'ERR_JWE_DECRYPTION_FAILED' } },
      });
      expect(called).toBe(false);
    });
  });
}
