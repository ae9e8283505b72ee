// Every example envelope a reader meets (in the committed Markdown and in `pnpm demo`'s output)
// opens with the built CLI under the key printed beside it: the reader can reproduce each one.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** How far from an envelope (in lines) its key may be printed. */
const NEARBY_LINES = 30;

interface Found {
  where: string;
  /** The envelope exactly as written: what a reader would copy. */
  text: string;
  line: number;
}

/**
 * Flattened JSON envelopes (an object with `iv`, `ciphertext` and `tag` written out in full) and
 * compact ones. Placeholders such as `"iv": "…"` or `..iv.ciphertext.tag` are not envelopes.
 */
function envelopesIn(text: string, where: string): Found[] {
  const found: Found[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  for (const match of text.matchAll(/\{[^{}]*"ciphertext"\s*:[^{}]*\}/g)) {
    const members = Object.fromEntries(
      [...match[0].matchAll(/"(\w+)"\s*:\s*"([^"]*)"/g)].map(([, name, value]) => [name, value]),
    );
    const parts = ['iv', 'ciphertext', 'tag', ...('protected' in members ? ['protected'] : [])];
    if (parts.every((part) => BASE64URL.test(members[part] ?? ''))) {
      found.push({ where, text: match[0], line: lineOf(match.index) });
    }
  }
  for (const match of text.matchAll(
    /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g,
  )) {
    found.push({ where, text: match[0], line: lineOf(match.index) });
  }
  return found;
}

/** The keys printed near `line`, nearest first: `JWE_KEY=…`, `JWE_KEYS="kid:…"`, "shared key `…`". */
function keysNear(text: string, line: number): string[] {
  const lines = text.split('\n');
  const candidates: { key: string; distance: number }[] = [];
  lines.forEach((content, index) => {
    const distance = Math.abs(index + 1 - line);
    if (distance > NEARBY_LINES) return;
    const patterns = [
      /JWE_KEY=['"]?([^\s'"]+)/g,
      /JWE_KEYS=['"]?[^:\s'"]+:([^\s'",]+)/g,
      /shared key `([^`]+)`/g,
    ];
    for (const pattern of patterns) {
      for (const match of content.matchAll(pattern)) candidates.push({ key: match[1]!, distance });
    }
  });
  return [...new Set(candidates.sort((a, b) => a.distance - b.distance).map((c) => c.key))];
}

/** Opens `envelope` with the first nearby key the CLI accepts; the outcome of every try when none does. */
async function openWithNearbyKey(envelope: Found, keys: string[]): Promise<string> {
  const tries: string[] = [];
  for (const key of keys) {
    const result = await runCli(['decrypt'], { input: envelope.text, env: { JWE_KEY: key } });
    if (result.code === 0) return result.stdout;
    tries.push(`key ${JSON.stringify(key)}: exit ${result.code}, ${result.stderr.trim()}`);
  }
  throw new Error(
    `${envelope.where}:${envelope.line}: no key printed within ${NEARBY_LINES} lines opens ${envelope.text.slice(0, 60)}… ` +
      `(${keys.length === 0 ? 'no key found' : tries.join('; ')})`,
  );
}

describe('example envelopes in the committed Markdown', () => {
  it('each opens with the CLI under the key printed beside it', async () => {
    const { stdout } = await run('git', ['ls-files', '-z', '--', '*.md'], { cwd: ROOT });
    const files = stdout.split('\0').filter((file) => file !== '');
    const envelopes: Found[] = [];
    const texts = new Map<string, string>();
    for (const file of files) {
      const text = await readFile(join(ROOT, file), 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      texts.set(file, text);
      envelopes.push(...envelopesIn(text, file));
    }
    // The root README's example (flattened and compact) is among them.
    expect(envelopes.filter((envelope) => envelope.where === 'README.md')).toHaveLength(2);
    for (const envelope of envelopes) {
      const plaintext = await openWithNearbyKey(
        envelope,
        keysNear(texts.get(envelope.where)!, envelope.line),
      );
      expect(plaintext.length).toBeGreaterThan(0);
    }
  });
});

describe('pnpm demo', () => {
  it('prints its key, names only documents that exist, and each envelope it shows opens with that key', async () => {
    const demo = join(ROOT, 'examples/service/scripts/demo.mjs');
    const { stdout } = await run(process.execPath, [demo, '--skip-build'], { cwd: ROOT });
    expect(stdout).not.toMatch(/spec \d/i);
    for (const cited of stdout.matchAll(/\((docs\/[\w./-]+\.md), "([^"]+)"\)/g)) {
      const document = await readFile(join(ROOT, cited[1]!), 'utf8');
      expect(document).toContain(`## ${cited[2]}`);
    }
    const key = /Demo key \(kid "demo-kid"\), made for this run: (\S+)/.exec(stdout)?.[1];
    expect(key).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const envelopes = envelopesIn(stdout, 'pnpm demo output');
    // The registration and the encrypted upload, each a request and an answer.
    expect(envelopes).toHaveLength(4);
    // The demo prints its key once, before the first envelope: that key opens every one.
    const opened = [];
    for (const envelope of envelopes) opened.push(await openWithNearbyKey(envelope, [key!]));
    expect(opened[0]).toContain('"aadhaar_number": "123412341234"');
    expect(opened[1]).toContain('"status": "otp_sent"');
    expect(opened[2]).toContain('PDF document (application/pdf)');
    expect(opened[3]).toContain('"task": "smart"');
  });
});
