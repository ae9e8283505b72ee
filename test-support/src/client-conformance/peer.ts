// The peer seam of the client conformance suite: what the suite needs from whatever answers the
// client. Every peer speaks the query-string protocol of ../client/jwe-server.ts (fail=N, status=NNN,
// reply=html|wrongkey|marked-garbage), reads sealed requests under SHARED_KEY with kid `client-1`,
// and records what arrived, decrypted.
import { startJweServer } from '../client/jwe-server.js';
import type { FileInfo } from '../client/recording-server.js';

/** One request as the peer received it. */
export interface PeerRecord {
  path: string;
  /** The request carried X-Encryption: JWE and opened. */
  encrypted: boolean;
  headers: Record<string, string | string[] | undefined>;
  /** The body as it arrived, when the peer kept it (always for mocks; buffered requests on a socket). */
  wire?: string;
  /** The decrypted JSON of a sealed JSON request. */
  json?: unknown;
  /** The file inside a sealed upload. */
  file?: FileInfo;
}

export interface PeerHandle {
  url: string;
  origin: string;
  readonly requests: readonly PeerRecord[];
  /** An undici dispatcher that reaches the peer (a MockAgent), for undici drivers. */
  dispatcher?: unknown;
  close(): Promise<void>;
}

export interface ConformancePeer {
  /** Shown in test names: "MSW (setupServer)". */
  name: string;
  /** A real socket: cases about hang-ups and transfer-encoding run only on such peers. */
  realSocket: boolean;
  start(): Promise<PeerHandle>;
}

/** The default peer: a node:http server on 127.0.0.1 that decrypts with the reference JWE. */
export const realServerPeer: ConformancePeer = {
  name: 'a real server on 127.0.0.1',
  realSocket: true,
  start: startJweServer,
};
