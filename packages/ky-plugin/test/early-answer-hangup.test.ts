// ky: a server that answers a streamed upload early (413) and closes the connection, as Bun does,
// is an HTTPError with that status and the decrypted body, not EPIPE or ERR_JWE_UPLOAD_INTERRUPTED.
import { fileFromPath } from '@jwe-transport/client-core';
import { HANGUP_KEY, REFUSAL, useHangupFixture } from '@jwe-transport/test-support/client/hangup-server';
import ky, { HTTPError } from 'ky';
import { describe, expect, it } from 'vitest';
import { jwe } from '../src/index.js';

const TRIES = 5;

describe('ky 1.x with jwe(): an upload from disk refused by a server that then hangs up', () => {
  const fixture = useHangupFixture();

  for (const carrier of ['form', 'blob'] as const) {
    it(`sent as a ${carrier === 'form' ? 'FormData' : 'Blob'}: an HTTPError 413 with the decrypted body, every time`, async () => {
      const { server, file } = fixture;
      const api = ky.create({ timeout: false, retry: 0 }).extend(jwe({ key: HANGUP_KEY, kid: 'kid-1' }));
      for (let attempt = 0; attempt < TRIES; attempt++) {
        const blob = await fileFromPath(file.path);
        const form = new FormData();
        form.set('file', blob, 'scan.bin');
        const error = await api.post(`${server.url}/upload`, { body: carrier === 'form' ? form : blob }).then(
          () => undefined,
          (reason: unknown) => reason,
        );
        expect(error, String(error)).toBeInstanceOf(HTTPError);
        const { response } = error as HTTPError;
        expect(response.status).toBe(413);
        expect(await response.json()).toEqual(REFUSAL);
      }
      expect(server.lastHeaders?.['transfer-encoding']).toBe('chunked');
    });
  }
});
