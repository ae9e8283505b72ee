// Interop peer: python3-jwcrypto (Debian) driven as a subprocess.
// One Python process per call; batch many envelopes per call for speed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Interpreter: Debian's python3 (has python3-jwcrypto), not whatever is on PATH. */
export const JWCRYPTO_PYTHON = process.env.JWCRYPTO_PYTHON ?? '/usr/bin/python3';
export const JWCRYPTO_PEER_SCRIPT = fileURLToPath(new URL('./jwcrypto_peer.py', import.meta.url));

/**
 * @typedef {{ ok: true, plaintext: Uint8Array } | { ok: false, error: string, detail?: string }} JwcryptoDecryptResult
 */

/**
 * Run the Python peer with one JSON request; resolve with the parsed JSON response.
 * @param {'encrypt'|'decrypt'} command
 * @param {unknown} request
 * @returns {Promise<any>}
 */
function runPeer(command, request) {
  return new Promise((resolve, reject) => {
    // -I: isolated mode, ignore PYTHON* env vars and user site-packages.
    const child = spawn(JWCRYPTO_PYTHON, ['-I', JWCRYPTO_PEER_SCRIPT, command], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    /** @type {Buffer[]} */ const out = [];
    /** @type {Buffer[]} */ const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', reject);
    child.stdin.on('error', () => {}); // EPIPE if python dies early; reported via exit code
    child.on('close', (code, signal) => {
      const stderr = Buffer.concat(err).toString('utf8');
      if (code !== 0) {
        reject(new Error(`jwcrypto peer ${command} failed (code ${code}, signal ${signal}): ${stderr}`));
        return;
      }
      try {
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')));
      } catch (e) {
        reject(new Error(`jwcrypto peer ${command}: bad JSON output: ${e}; stderr: ${stderr}`));
      }
    });
    child.stdin.end(JSON.stringify(request));
  });
}

/** @param {Uint8Array} bytes */
function toB64(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * Encrypt `plaintext` with jwcrypto (alg "dir", enc "A128CBC-HS256"), producing `count`
 * flattened JWE JSON objects. If `kid` is given it is added as a TOP-LEVEL member.
 * @param {string} keyString 16-character shared key (the JWK is keyString+keyString, UTF-8)
 * @param {Uint8Array} plaintext
 * @param {{ kid?: string, count?: number }} [options]
 * @returns {Promise<Record<string, unknown>[]>}
 */
export async function jwcryptoEncrypt(keyString, plaintext, options = {}) {
  const { kid, count = 1 } = options;
  /** @type {Record<string, unknown>} */
  const request = { key: keyString, plaintext_b64: toB64(plaintext), count };
  if (kid !== undefined) request.kid = kid;
  const res = await runPeer('encrypt', request);
  return res.envelopes;
}

/**
 * Decrypt a batch of envelopes (flattened JWE objects or compact strings) with jwcrypto.
 * Never rejects for a bad envelope; each result says ok or the Python exception class name.
 * @param {string} keyString
 * @param {(object|string)[]} envelopes
 * @returns {Promise<JwcryptoDecryptResult[]>}
 */
export async function jwcryptoDecrypt(keyString, envelopes) {
  if (!Array.isArray(envelopes)) throw new TypeError('jwcryptoDecrypt: envelopes must be an array');
  const res = await runPeer('decrypt', { key: keyString, envelopes });
  return res.results.map(
    /** @param {any} r @returns {JwcryptoDecryptResult} */
    (r) =>
      r.ok
        ? { ok: true, plaintext: new Uint8Array(Buffer.from(r.plaintext_b64, 'base64')) }
        : { ok: false, error: r.error, detail: r.detail },
  );
}
