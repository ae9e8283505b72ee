import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import express from 'express';
import express4 from 'express4';
import { FlattenedEncrypt, flattenedDecrypt } from 'jose';

/** Both Express majors; every HTTP test runs against each. */
export const EXPRESS_VERSIONS = [
  { name: 'Express 5', create: () => express() as Express, json: express.json },
  { name: 'Express 4', create: () => express4() as Express, json: express4.json },
] as const;

export const KEYS = { 'kid-a': 'abcdefghijklmnop', 'kid-b': 'Q7w!x9z#m2p$r5t&' } as const;
export const KEY_A = KEYS['kid-a'];
export const KEY_B = KEYS['kid-b'];
const utf8 = new TextEncoder();

export interface Running {
  url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 with a port the OS picks. */
export function listen(app: Express): Promise<Running> {
  return new Promise((resolve, reject) => {
    const server: Server = app.listen(0, '127.0.0.1');
    server.once('error', reject);
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** The 32-byte key of a 16-character shared key (spec 2.4), computed independently of our codec. */
export const rawKey = (shared: string) => utf8.encode(shared + shared);

export async function joseEncrypt(shared: string, plaintext: string | Uint8Array, kid?: string) {
  const bytes = typeof plaintext === 'string' ? utf8.encode(plaintext) : plaintext;
  const envelope: Record<string, unknown> = {
    ...(await new FlattenedEncrypt(bytes)
      .setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' })
      .encrypt(rawKey(shared))),
  };
  if (kid !== undefined) envelope.kid = kid;
  return envelope;
}

export async function joseDecryptJson(shared: string, envelope: unknown): Promise<unknown> {
  const { plaintext } = await flattenedDecrypt(
    envelope as Parameters<typeof flattenedDecrypt>[0],
    rawKey(shared),
    {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A128CBC-HS256'],
    },
  );
  return JSON.parse(new TextDecoder().decode(plaintext));
}

export function postEncrypted(url: string, envelope: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-encryption': 'JWE', ...headers },
    body: typeof envelope === 'string' ? envelope : JSON.stringify(envelope),
  });
}

export function postJson(url: string, value: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(value),
  });
}
