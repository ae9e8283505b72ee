// axios: a server that answers a streamed upload early (413) and closes the connection, as Bun
// does, is an AxiosError with that status and the decrypted body, not EPIPE.
import { openAsBlob } from 'node:fs';
import { HANGUP_KEY, REFUSAL, useHangupFixture } from '@jwe-transport/test-support/client/hangup-server';
import { MiB } from '@jwe-transport/test-support/client/large-file';
import axios, { isAxiosError } from 'axios';
import { describe, expect, it } from 'vitest';
import { useJwe } from '../src/index.node.js';

const TRIES = 5;

describe('useJwe: an upload from disk refused by a server that then hangs up', () => {
  const fixture = useHangupFixture();

  for (const adapter of ['http', 'fetch'] as const) {
    it(`${adapter} adapter: an AxiosError 413 with the decrypted body, every time`, async () => {
      const { server, file } = fixture;
      const api = axios.create({ baseURL: server.url, adapter });
      useJwe(api, { key: HANGUP_KEY, streamThreshold: MiB });
      for (let attempt = 0; attempt < TRIES; attempt++) {
        const form = new FormData();
        form.set('file', await openAsBlob(file.path), 'scan.bin');
        const error = await api.post('/upload', form).then(
          () => undefined,
          (reason: unknown) => reason,
        );
        expect(isAxiosError(error), String(error)).toBe(true);
        if (!isAxiosError(error)) return;
        expect(error.response?.status, `${error.code} ${error.message}`).toBe(413);
        expect(error.response?.data).toEqual(REFUSAL);
      }
      expect(server.lastHeaders?.['transfer-encoding']).toBe('chunked');
    });
  }
});
