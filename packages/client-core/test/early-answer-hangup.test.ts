// A server that hangs up in the middle of a streamed upload without answering: there is no answer
// to report, so the fetch wrapper says how far the upload got. (A server that answers early and
// then hangs up is a case of the client conformance suite, test/conformance.test.ts.)

import { HANGUP_KEY, useHangupFixture } from '@jwe-transport/test-support/client/hangup-server';
import { describe, expect, it } from 'vitest';
import { createJweFetch, fileFromPath, JweUploadError } from '../src/index.node.js';

const TRIES = 5;

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
