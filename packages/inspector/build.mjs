// Builds dist/inspector.html: one file with every script and style inline, and a
// Content-Security-Policy that allows them by hash and no network at all. The worker's code is
// bundled first and embedded in the page's script as a string; the page starts it from a Blob.
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

const here = new URL('.', import.meta.url);
const { version } = JSON.parse(await readFile(new URL('package.json', here), 'utf8'));

async function bundle(entry, define = {}) {
  const result = await build({
    entryPoints: [new URL(entry, here).pathname],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    // The codec's `browser` export: the WebCrypto build, no node:crypto.
    conditions: ['browser'],
    define,
  });
  return result.outputFiles[0].text;
}

/** A script or style element's text must not end it early; fail rather than ship a broken page. */
function assertInlineSafe(text, what) {
  if (/<\/(script|style)/i.test(text))
    throw new Error(`${what} contains a closing tag; it cannot be inlined.`);
  return text;
}

const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const worker = await bundle('src/worker.ts');
// Inside a JS string "<\/" is "</": the worker's text can hold anything and still sit in a <script>.
const workerLiteral = JSON.stringify(worker).replace(/<\//g, '<\\/');
const script = assertInlineSafe(
  await bundle('src/main.ts', {
    __WORKER_SOURCE__: workerLiteral,
    __INSPECTOR_VERSION__: JSON.stringify(version),
  }),
  'The page script',
);
const style = assertInlineSafe(await readFile(new URL('src/styles.css', here), 'utf8'), 'The style sheet');
const csp = [
  "default-src 'none'",
  "connect-src 'none'",
  `script-src ${hash(script)}`,
  `style-src ${hash(style)}`,
  'worker-src blob:',
  'img-src blob:',
  'media-src blob:',
  'frame-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
const template = await readFile(new URL('src/page.html', here), 'utf8');
const html = template
  .replace('__CSP__', () => csp)
  .replace('__VERSION__', () => version)
  .replace('/*__STYLE__*/', () => style)
  .replace('/*__SCRIPT__*/', () => script);
await mkdir(new URL('dist/', here), { recursive: true });
await writeFile(new URL('dist/inspector.html', here), html);
// The policy on its own, for servers that send it as a header (`jwe-transport web`).
await writeFile(new URL('dist/csp.txt', here), `${csp}\n`);
console.log(`dist/inspector.html: ${html.length.toLocaleString('en-US')} bytes`);
