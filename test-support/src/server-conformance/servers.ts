import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import type { CaseName, ConformanceAdapter, RunningServer, ServerSetup } from './adapter.js';

export const MiB = 2 ** 20;
export const KEYS = { 'kid-a': 'abcdefghijklmnop', 'kid-b': 'Q7w!x9z#m2p$r5t&' } as const;

export const LIMITS = {
  json: 64 * 1024,
  upload: 400 * MiB,
  maxSpill: 1 * MiB,
  memoryUpload: 8 * MiB,
};

/** A server for the duration of the enclosing `describe`, with a fresh upload folder. */
export function useServer(
  adapter: ConformanceAdapter,
  setup: Pick<ServerSetup, 'keys'> &
    Partial<Omit<ServerSetup, 'keys' | 'upload'>> & { upload?: Partial<ServerSetup['upload']> },
): { readonly url: string; readonly dest: string } {
  const state = { url: '', dest: '' };
  let running: RunningServer | undefined;
  beforeAll(async () => {
    state.dest = await mkdtemp(join(tmpdir(), 'jwe-conformance-'));
    running = await adapter.start({
      limit: LIMITS.json,
      memoryUpload: { limit: LIMITS.memoryUpload },
      ...setup,
      upload: { limit: LIMITS.upload, maxSpill: LIMITS.maxSpill, ...setup.upload, dest: state.dest },
    });
    state.url = running.url;
  });
  afterAll(async () => {
    await running?.close();
    await rm(state.dest, { recursive: true, force: true });
  });
  return state;
}

/** Declares a case by its name in CASES, so that every adapter runs the same list. */
export function check(
  _adapter: ConformanceAdapter,
  name: CaseName,
  body: () => Promise<void>,
  timeout?: number,
): void {
  it(name, body, timeout);
}

/** What each codec failure must look like over HTTP. */
export const EXPECTED: Record<string, { status: number; type: string }> = {
  ERR_JWE_INVALID: { status: 400, type: 'jwe.envelope.invalid' },
  ERR_JWE_UNSUPPORTED: { status: 400, type: 'jwe.unsupported' },
  ERR_KEY_UNKNOWN: { status: 400, type: 'jwe.kid.unknown' },
  ERR_JWE_DECRYPTION_FAILED: { status: 400, type: 'jwe.decrypt.failed' },
  ERR_JWE_TOO_LARGE: { status: 413, type: 'entity.too.large' },
};
