// The transcription helpers over real HTTP, run with ky 1.x (transcription-ky1.test.ts) and ky 2.x
// (transcription-ky2.node22.test.ts) against a small server that reads the wire format independently.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  createWebhookSubscription,
  type KyLike,
  pollSessionResult,
  TranscriptionError,
  uploadAudio,
} from '@jwe-transport/ky-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Seen {
  subscriptions: unknown[];
  uploads: {
    fields: Record<string, string>;
    files: { name: string; type: string; size: number; sha256: string }[];
  }[];
  polls: { id: string; action: string | null }[];
}

async function startServer() {
  const seen: Seen = { subscriptions: [], uploads: [], polls: [] };
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const asRequest = (req: IncomingMessage) =>
    new Request(`http://local${req.url}`, {
      method: req.method ?? 'POST',
      headers: req.headers as Record<string, string>,
      body: Readable.toWeb(req) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
  const server = createServer(async (req, res) => {
    const url = new URL(`http://local${req.url}`);
    if (req.method === 'POST' && url.pathname === '/api/notification/v1/connect/webhook/subscriptions') {
      const body = (await asRequest(req).json()) as { endpoint: string };
      seen.subscriptions.push(body);
      if (body.endpoint.includes('refused'))
        return send(res, 400, { error: { message: 'endpoint refused' } });
      return send(res, 201, { id: `sub-${seen.subscriptions.length}`, status: 'success' });
    }
    if (req.method === 'POST' && url.pathname === '/api/voice/api/v2/transcriptions') {
      const form = await asRequest(req).formData();
      const fields: Record<string, string> = {};
      const files: Seen['uploads'][number]['files'] = [];
      const entries: [string, FormDataEntryValue][] = [];
      form.forEach((value, name) => {
        entries.push([name, value]);
      });
      for (const [name, value] of entries) {
        if (typeof value === 'string') fields[name] = value;
        else if (name === 'file') {
          const bytes = new Uint8Array(await value.arrayBuffer());
          files.push({ name: value.name, type: value.type, size: bytes.length, sha256: sha256(bytes) });
        }
      }
      seen.uploads.push({ fields, files });
      return send(
        res,
        202,
        files.map((file) => ({
          file_name: file.name,
          transaction_id: fields.transaction_id,
          status: 'accepted',
        })),
      );
    }
    const poll = /^\/api\/results\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && poll) {
      const id = decodeURIComponent(poll[1]!);
      seen.polls.push({ id, action: url.searchParams.get('action') });
      if (id === 'unknown') return send(res, 404, { error: { message: 'no such session' } });
      if (seen.polls.filter((item) => item.id === id).length < 3)
        return send(res, 202, { status: 'processing' });
      return send(res, 206, {
        data: {
          output: [
            {
              template_id: 'transcript_template',
              value: b64('hello'),
              type: 'transcript',
              status: 'partial_success',
              errors: [],
              warnings: ['short audio'],
            },
          ],
        },
      });
    }
    send(res, 404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function transcriptionSuite(name: string, makeApi: (prefix: string) => KyLike): void {
  describe(`transcription helpers on ${name}`, () => {
    let server: Awaited<ReturnType<typeof startServer>>;
    let api: KyLike;
    let dir: string;
    beforeAll(async () => {
      server = await startServer();
      api = makeApi(server.url);
      dir = await mkdtemp(join(tmpdir(), 'transcription-helpers-'));
    });
    afterAll(async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('creates a subscription with the spec 2.6 body and reads 201 { id, status }', async () => {
      const subscription = await createWebhookSubscription(api, {
        endpoint: 'https://hooks.example.org/eka',
        signingKey: 'signing-secret',
      });
      expect(subscription).toEqual({ id: 'sub-1', status: 'success' });
      expect(server.seen.subscriptions[0]).toEqual({
        event_names: ['v2rx.completed'],
        endpoint: 'https://hooks.example.org/eka',
        protocol: 'https',
        signing_key: 'signing-secret',
      });
    });

    it('reports a refused subscription with the service message and what to check', async () => {
      const error = await createWebhookSubscription(api, { endpoint: 'https://refused.example.org/' }).catch(
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(TranscriptionError);
      expect((error as TranscriptionError).status).toBe(400);
      expect((error as TranscriptionError).message).toContain('The service said: "endpoint refused"');
      expect((error as TranscriptionError).message).toMatch(/publicly reachable/);
    });

    it('uploads files from memory and disk as multipart with the parameters as fields', async () => {
      const onDisk = Buffer.from('RIFF....WAVEfmt fake audio bytes');
      await writeFile(join(dir, 'ward round.MP3'), onDisk);
      const inMemory = new Uint8Array([1, 2, 3, 4, 5]);
      const params = {
        transaction_id: 'txn-9',
        action: 'scribe-v2',
        extra_data: { mode: 'dictation', model_type: 'lite' as const },
        output_format: {
          input_language: ['kn' as const],
          output_template: [{ template_id: 'transcript_template' as const, codification_needed: false }],
        },
      };
      const entries = await uploadAudio(
        api,
        [{ name: 'a.m4a', data: inMemory }, { path: join(dir, 'ward round.MP3') }],
        params,
      );
      expect(entries.map((entry) => entry.file_name)).toEqual(['a.m4a', 'ward round.MP3']);
      const [upload] = server.seen.uploads;
      expect(upload?.files).toEqual([
        { name: 'a.m4a', type: 'audio/mp4', size: 5, sha256: sha256(inMemory) },
        { name: 'ward round.MP3', type: 'audio/mpeg', size: onDisk.length, sha256: sha256(onDisk) },
      ]);
      expect(upload?.fields).toEqual({
        transaction_id: 'txn-9',
        action: 'scribe-v2',
        extra_data: JSON.stringify(params.extra_data),
        output_format: JSON.stringify(params.output_format),
      });
    });

    it('checks parameters and file paths before sending anything', async () => {
      const before = server.seen.uploads.length;
      const invalid = await uploadAudio(api, [{ name: 'a.wav', data: new Uint8Array(1) }], {
        output_format: { input_language: ['de' as 'hi'], output_template: [] },
      }).catch((error: unknown) => error);
      expect((invalid as TranscriptionError).code).toBe('ERR_TRANSCRIPTION_PARAMS_INVALID');
      const unreadable = await uploadAudio(api, [{ path: join(dir, 'missing.wav') }], {
        output_format: {
          input_language: ['hi'],
          output_template: [{ template_id: 'transcript_template', codification_needed: false }],
        },
      }).catch((error: unknown) => error);
      expect((unreadable as TranscriptionError).code).toBe('ERR_UPLOAD_FILE_UNREADABLE');
      expect((unreadable as TranscriptionError).message).toBe(
        'Cannot read the audio file "missing.wav" (ENOENT): check that the file path is valid and the file is readable.',
      );
      expect(server.seen.uploads.length).toBe(before);
    });

    it('polls through 202 answers to a 206 partial result and decodes it', async () => {
      const polled = await pollSessionResult(api, 'txn 9/ü', { path: 'results', intervalMs: 5 });
      expect(polled.httpStatus).toBe(206);
      expect(polled.decoded.documents[0]).toMatchObject({
        text: 'hello',
        warnings: ['short audio'],
        status: 'partial_success',
      });
      const polls = server.seen.polls.filter((item) => item.id === 'txn 9/ü');
      expect(polls).toEqual(Array(3).fill({ id: 'txn 9/ü', action: 'scribe-v2' }));
    });

    it('reports an unknown session with the status and what to check', async () => {
      const error = await pollSessionResult(api, 'unknown', { path: 'results' }).catch(
        (failure: unknown) => failure,
      );
      expect((error as TranscriptionError).code).toBe('ERR_RESULT_FAILED');
      expect((error as TranscriptionError).status).toBe(404);
      expect((error as TranscriptionError).message).toMatch(/no such session.*Check the session id/);
    });
  });
}
