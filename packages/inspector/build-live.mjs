// Builds dist/live.html, the live view `jwe-transport proxy --ui` serves: one file with its
// script and style inline, allowed by hash, and a policy whose only connection is back to the
// origin that served it (the proxy's own port), for the exchanges it streams.
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

const here = new URL('.', import.meta.url);
const { version } = JSON.parse(await readFile(new URL('package.json', here), 'utf8'));
const result = await build({
  entryPoints: [new URL('src/live.ts', here).pathname],
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  conditions: ['browser'],
});
const script = result.outputFiles[0].text;
const style = await readFile(new URL('src/styles.css', here), 'utf8');
for (const [text, what] of [
  [script, 'The live script'],
  [style, 'The style sheet'],
]) {
  if (/<\/(script|style)/i.test(text))
    throw new Error(`${what} contains a closing tag; it cannot be inlined.`);
}
const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const csp = [
  "default-src 'none'",
  "connect-src 'self'",
  `script-src ${hash(script)}`,
  `style-src ${hash(style)}`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
const template = await readFile(new URL('src/live-page.html', here), 'utf8');
const html = template
  .replace('__CSP__', () => csp)
  .replace('__VERSION__', () => version)
  .replace('/*__STYLE__*/', () => style)
  .replace('/*__SCRIPT__*/', () => script);
await mkdir(new URL('dist/', here), { recursive: true });
await writeFile(new URL('dist/live.html', here), html);
console.log(`dist/live.html: ${html.length.toLocaleString('en-US')} bytes`);
