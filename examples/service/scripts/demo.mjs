#!/usr/bin/env node
// `pnpm demo`: builds the packages quietly (their output is shown only if the build fails), starts
// the reference service on a free port, then talks to it with ky and the @jwe-transport/ky-plugin,
// printing what travels on the wire and what each side reads. The service's log lines are shown in
// the section of the request they belong to.
// `pnpm --dir examples/service demo` (after a root `pnpm build`) skips the build: --skip-build.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** `pnpm build` at the root with its output kept back; printed whole, with its exit code, if it fails. */
async function buildQuietly() {
  const started = Date.now();
  process.stdout.write('Building the packages (pnpm build; its output is shown only if it fails)... ');
  const child = spawn('pnpm', ['build'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const code = await new Promise((resolve) => {
    child.once('error', () => resolve(127));
    child.once('close', resolve);
  });
  if (code !== 0) {
    console.log('failed.\n');
    process.stdout.write(Buffer.concat(output));
    console.error(`\npnpm build failed (exit code ${code}); the demo did not run.`);
    process.exit(typeof code === 'number' && code > 0 ? code : 1);
  }
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
}

if (!process.argv.includes('--skip-build')) await buildQuietly();
// Loaded after the build: the plugin is one of the packages it builds.
const { jwe } = await import('@jwe-transport/ky-plugin');
const { default: ky } = await import('ky');

const KID = 'demo-kid';
const SHARED_KEY = randomBytes(12).toString('base64url'); // 16 characters, as the spec's keys
const TOKEN = randomBytes(18).toString('base64url');
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

const shorten = (text, max = 72) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
const showJson = (value) =>
  JSON.stringify(
    value,
    (_name, member) => (typeof member === 'string' ? shorten(member) : member),
    2,
  ).replace(/\n/g, '\n    ');

/** Envelopes go out whole, so that each can be copied into `jwe-transport decrypt` with the demo key. */
const showWire = (value) =>
  typeof value?.ciphertext === 'string'
    ? JSON.stringify(value, null, 2).replace(/\n/g, '\n    ')
    : showJson(value);

function section(title) {
  console.log(`\n=== ${title} ${'='.repeat(Math.max(0, 70 - title.length))}`);
}

/** The service's stdout lines not yet shown, and who waits for one. */
const serviceLines = [];
let serviceWaiter;

/**
 * Shows the service's lines up to the first one `matches` accepts, waiting for it (at most 5 s:
 * the demo goes on without it rather than hang).
 */
async function showServiceLinesUntil(matches) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const index = serviceLines.findIndex(matches);
    const shown = serviceLines.splice(0, index < 0 ? serviceLines.length : index + 1);
    for (const line of shown) console.log(`  [service] ${line}`);
    if (index >= 0 || Date.now() >= deadline) return;
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, deadline - Date.now());
      serviceWaiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** Starts dist/main.js with PORT=0 and resolves with the URL it prints once it listens. */
async function startService(docsDir) {
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: '0',
      JWE_KEYS: `${KID}:${SHARED_KEY}`,
      ACCESS_TOKENS: TOKEN,
      DOCS_DIR: docsDir,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    serviceLines.push(line);
    serviceWaiter?.();
  });
  let url;
  const exited = new Promise((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the service exited (code ${code}) before listening`))),
  );
  await Promise.race([
    showServiceLinesUntil((line) => {
      url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      return url !== undefined;
    }),
    exited,
  ]);
  if (url === undefined) throw new Error('the service did not say where it listens');
  return { child, url };
}

/** A fetch that prints each request and response body as it is on the wire. */
async function wireFetch(input, init) {
  const request = new Request(input, init);
  const sent = request.headers.get('content-type')?.startsWith('multipart/')
    ? '(multipart/form-data body)'
    : await request.clone().text();
  console.log(`--> ${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
  console.log(`    X-Encryption: ${request.headers.get('x-encryption') ?? '(none)'}`);
  console.log(`    body on the wire: ${sent.startsWith('{') ? showWire(JSON.parse(sent)) : sent}`);
  const response = await fetch(request);
  const received = await response.clone().text();
  console.log(`<-- ${response.status} X-Encryption: ${response.headers.get('x-encryption') ?? '(none)'}`);
  console.log(`    body on the wire: ${showWire(JSON.parse(received))}`);
  // The service's access-log line for this request, here rather than in a later section.
  const { pathname } = new URL(request.url);
  await showServiceLinesUntil((line) => line.startsWith(`${request.method} ${pathname} `));
  return response;
}

const docsDir = await mkdtemp(join(tmpdir(), 'jwe-transport-demo-'));
section('Starting the reference service');
const { child, url } = await startService(docsDir);
console.log(`Demo key (kid "${KID}"), made for this run: ${SHARED_KEY}`);
console.log(`Open any envelope below with: JWE_KEY='${SHARED_KEY}' pnpm jwe-transport decrypt envelope.json`);
try {
  const headers = { authorization: `Bearer ${TOKEN}` };
  // jwe() supplies ky's fetch option, so the wire-printing fetch goes to jwe().
  const encrypted = ky.create({
    prefixUrl: url,
    headers,
    ...jwe({ key: SHARED_KEY, kid: KID, fetch: wireFetch }),
  });
  const plain = ky.create({ prefixUrl: url, headers, fetch: wireFetch });

  section('1. Encrypted registration initiation (docs/wire-format.md, "X-Encryption: JWE")');
  const registration = await encrypted
    .post('abdm/na/v1/registration/aadhaar/init', { json: { aadhaar_number: '123412341234' } })
    .json();
  console.log(`decrypted answer: ${showJson(registration)}`);

  section('2. Encrypted document upload (docs/wire-format.md, "Encrypted file uploads")');
  const pdf = new Blob([Buffer.concat([Buffer.from('%PDF-1.4\n% demo document\n'), randomBytes(256)])]);
  const form = new FormData();
  form.append('file', pdf, 'prescription.pdf');
  const encryptedUpload = await encrypted.post('mr/api/v2/docs?task=smart', { body: form }).json();
  console.log(`decrypted answer: ${showJson(encryptedUpload)}`);

  section('3. Plain multipart document upload (docs/wire-format.md, "Plain multipart uploads")');
  const plainForm = new FormData();
  plainForm.append('file', new Blob([Buffer.from('RIFF\0\0\0\0WAVEfmt demo audio')]), 'dictation.wav');
  const plainUpload = await plain.post('mr/api/v2/docs?task=pii', { body: plainForm }).json();
  console.log(`answer (plain): ${showJson(plainUpload)}`);
  section('Done');
} finally {
  child.kill('SIGTERM');
  await rm(docsDir, { recursive: true, force: true });
}
