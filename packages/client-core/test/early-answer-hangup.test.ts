// A server that answers a streamed upload early (413) and closes the connection, as Bun does: the
// answer reached the client before the reset, so it is reported with its status and decrypted body.

import { HANGUP_KEY, REFUSAL, useHangupFixture } from '@jwe-transport/test-support/client/hangup-server';
import { describe, expect, it } from 'vitest';
import { createJweFetch, fileFromPath, JweUploadError, wasDecrypted } from '../src/index.node.js';

const TRIES = 5;

describe('createJweFetch: an upload from disk refused by a server that then hangs up', () => {
  const fixture = useHangupFixture();
  const jweFetch = createJweFetch({ key: HANGUP_KEY, kid: 'kid-1' });

  it('is the 413 with its decrypted body, every time', async () => {
    const { server, file } = fixture;
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const form = new FormData();
      form.set('file', await fileFromPath(file.path), 'scan.bin');
      const response = await jweFetch(`${server.url}/upload`, { method: 'POST', body: form });
      expect(response.status).toBe(413);
      expect(wasDecrypted(response)).toBe(true);
      expect(await response.json()).toEqual(REFUSAL);
    }
    expect(server.refused).toBe(TRIES);
    expect(server.lastHeaders?.['transfer-encoding']).toBe('chunked');
  });
});

describe('createJweFetch: an upload from disk cut off by a server that hangs up without answering', () => {
  const fixture = useHangupFixture({ answer: false });
  const jweFetch = createJweFetch({ key: HANGUP_KEY, kid: 'kid-1' });

  it('is ERR_JWE_UPLOAD_INTERRUPTED with the bytes sent: there is no answer to report', async () => {
    const { server, file } = fixture;
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const form = new FormData();
      form.set('file', await fileFromPath(file.path), 'scan.bin');
      const outcome = await jweFetch(`${server.url}/upload`, { method: 'POST', body: form }).then(
        (response) => response,
        (reason: unknown) => reason,
      );
      expect(outcome).toBeInstanceOf(JweUploadError);
      const error = outcome as JweUploadError;
      expect(error.code).toBe('ERR_JWE_UPLOAD_INTERRUPTED');
      expect(error.bytesSent).toBeGreaterThan(0);
      expect(error.bytesSent).toBeLessThan(file.size);
      expect(error.message).toMatch(/closed \((EPIPE|ECONNRESET|UND_ERR_SOCKET)\) after \d+ bytes/);
      expect(error.message).toContain(`POST ${server.url}/upload`);
    }
  });
});
