// Interop peer: the `jose` C command-line tool (latchset/jose, Debian package "jose").
// One process per call; the JWK lives in a private temp dir that is always removed.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const JOSE_BIN = process.env.JOSE_BIN ?? '/usr/bin/jose';

/** JWE template: jose C serializes this as {"alg":"dir","enc":"A128CBC-HS256"} (compact, sorted). */
const TEMPLATE = JSON.stringify({ protected: { alg: 'dir', enc: 'A128CBC-HS256' } });

/**
 * @param {string[]} args
 * @param {Uint8Array|string} input written to stdin
 * @returns {Promise<Buffer>} stdout
 */
function runJose(args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(JOSE_BIN, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */ const out = [];
    /** @type {Buffer[]} */ const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', reject);
    child.stdin.on('error', () => {}); // EPIPE if jose exits early; reported via exit code
    child.on('close', (code, signal) => {
      if (code !== 0) {
        const stderr = Buffer.concat(err).toString('utf8').trim() || '(no stderr)';
        reject(
          new Error(`jose ${args.slice(0, 2).join(' ')} failed (code ${code}, signal ${signal}): ${stderr}`),
        );
      } else {
        resolve(Buffer.concat(out));
      }
    });
    child.stdin.end(input);
  });
}

/**
 * Run `fn` with a temp file holding the oct JWK for keyString+keyString (UTF-8).
 * @template T
 * @param {string} keyString
 * @param {(keyFile: string) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withKeyFile(keyString, fn) {
  const dir = await mkdtemp(join(tmpdir(), 'jose-c-peer-'));
  try {
    const k = Buffer.from(keyString + keyString, 'utf8').toString('base64url');
    const keyFile = join(dir, 'key.jwk');
    await writeFile(keyFile, JSON.stringify({ kty: 'oct', k }), { mode: 0o600 });
    return await fn(keyFile);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Encrypt with jose C (`jose jwe enc`), returning a flattened JWE JSON object with protected
 * header exactly {"alg":"dir","enc":"A128CBC-HS256"}.
 * jose C emits `"encrypted_key":""` for alg "dir" (RFC 7516 §7.2.1 says it MUST be absent);
 * it is removed unless `raw: true`. If `kid` is given it is added as a TOP-LEVEL member.
 * @param {string} keyString 16-character shared key
 * @param {Uint8Array} plaintext
 * @param {{ kid?: string, raw?: boolean }} [options]
 * @returns {Promise<Record<string, unknown>>}
 */
export async function joseCEncrypt(keyString, plaintext, options = {}) {
  const { kid, raw = false } = options;
  const stdout = await withKeyFile(keyString, (keyFile) =>
    runJose(['jwe', 'enc', '-i', TEMPLATE, '-I', '-', '-k', keyFile, '-o', '-'], plaintext),
  );
  /** @type {Record<string, unknown>} */
  const envelope = JSON.parse(stdout.toString('utf8'));
  if (!raw && envelope.encrypted_key === '') delete envelope.encrypted_key;
  if (kid !== undefined) envelope.kid = kid;
  return envelope;
}

/**
 * Decrypt one envelope (flattened JWE object or compact string) with jose C (`jose jwe dec`).
 * Rejects (Error with jose's stderr) on any failure.
 * @param {string} keyString
 * @param {object|string} envelope
 * @returns {Promise<Uint8Array>}
 */
export async function joseCDecrypt(keyString, envelope) {
  const input = typeof envelope === 'string' ? envelope : JSON.stringify(envelope);
  const stdout = await withKeyFile(keyString, (keyFile) =>
    runJose(['jwe', 'dec', '-i', '-', '-k', keyFile], input),
  );
  return new Uint8Array(stdout);
}
