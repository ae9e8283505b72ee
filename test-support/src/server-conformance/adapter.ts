import type { KeyResolver } from '@jwe-transport/codec';

/**
 * What a server under test is configured with. Every adapter builds the same small app from it:
 *
 * - `POST /echo`: JSON route; answers `{ body, encrypted, kid }` (the parsed body and what the
 *   adapter recorded about the request).
 * - `GET /hello`: answers `{ hello: 'world' }`.
 * - `POST /fail`: throws `new Error('internal detail')`.
 * - `POST /upload`: upload route with disk storage in `upload.dest`; answers `{ size, path }`.
 * - `POST /upload-memory`: upload route kept in memory; answers `{ size, sha256 }` (hex).
 */
export interface ServerSetup {
  keys: Readonly<Record<string, string>> | KeyResolver;
  missingProtected?: 'infer' | 'rfc' | 'reject';
  /** Largest encrypted JSON body, in bytes. */
  limit: number;
  upload: { dest: string; limit: number; maxSpill: number };
  memoryUpload: { limit: number };
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The conformance cases, by name: an adapter lists the ones it is known to fail. */
export const CASES = [
  'shared vectors',
  'malformed envelopes',
  'key rotation by kid',
  'unknown kid',
  'sealed by npm jose',
  'sealed by jwcrypto',
  'plain requests pass through',
  'X-Encryption twice',
  'strict decrypted JSON',
  'route error is sealed and has a code',
  'JSON body over the limit',
  'in-memory uploads up to the limit',
  'multipart upload',
  '200 MiB upload in bounded memory',
  'tampered upload leaves no file',
  'aborted upload leaves no file',
  'upload over the limit leaves no file',
  'unknown kid after ciphertext refused early',
  'spill capped by maxSpill',
] as const;

export type CaseName = (typeof CASES)[number];

export interface ConformanceAdapter {
  name: string;
  start(setup: ServerSetup): Promise<RunningServer>;
}
