// What the inspector page and the proxy's live view are built with alike: a browser bundle, the
// checks that let a script or style sit inline, hashes for the policy, and the page written with
// everything inline.
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

export const here = new URL('.', import.meta.url);
export const { version } = JSON.parse(await readFile(new URL('package.json', here), 'utf8'));

/** One minified IIFE for the browser, with the codec's `browser` export (WebCrypto, no node:crypto). */
export async function bundle(entry, define = {}) {
  const result = await build({
    entryPoints: [new URL(entry, here).pathname],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    conditions: ['browser'],
    define,
  });
  return result.outputFiles[0].text;
}

/** A script or style element's text must not end it early; fail rather than ship a broken page. */
export function assertInlineSafe(text, what) {
  if (/<\/(script|style)/i.test(text))
    throw new Error(`${what} contains a closing tag; it cannot be inlined.`);
  return text;
}

/** A CSP source that allows exactly this inline text. */
export const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export const readStyle = async () =>
  assertInlineSafe(await readFile(new URL('src/styles.css', here), 'utf8'), 'The style sheet');

/** Fills `template` (in src/) with the policy, version, style and script, and writes dist/`out`. */
export async function writePage({ template, out, csp, style, script }) {
  const page = await readFile(new URL(`src/${template}`, here), 'utf8');
  const html = page
    .replace('__CSP__', () => csp)
    .replace('__VERSION__', () => version)
    .replace('/*__STYLE__*/', () => style)
    .replace('/*__SCRIPT__*/', () => script);
  await mkdir(new URL('dist/', here), { recursive: true });
  await writeFile(new URL(`dist/${out}`, here), html);
  console.log(`dist/${out}: ${html.length.toLocaleString('en-US')} bytes`);
}
