// Builds dist/inspector.html: one file with every script and style inline, and a
// Content-Security-Policy that allows them by hash and no network at all. The worker's code is
// bundled first and embedded in the page's script as a string; the page starts it from a Blob.
import { writeFile } from 'node:fs/promises';
import { assertInlineSafe, bundle, hash, here, readStyle, version, writePage } from './build-page.mjs';

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
const style = await readStyle();
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
await writePage({ template: 'page.html', out: 'inspector.html', csp, style, script });
// The policy on its own, for servers that send it as a header (`jwe-transport web`).
await writeFile(new URL('dist/csp.txt', here), `${csp}\n`);
