// scripts/check-links.mjs run as `pnpm lint` runs it: on Markdown files written here (every kind of
// link it must catch or let pass) and on the repository's own committed Markdown.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('./check-links.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function check(...files: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, ...files], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'check-links-'));
  await mkdir(join(dir, 'guide'));
  await writeFile(
    join(dir, 'guide', 'target.md'),
    [
      '# Target',
      '## `@scope/pkg/webhooks`',
      '## Errors',
      '## Errors',
      '## Keys, IVs & tags (A128CBC-HS256)',
      '<a id="custom-spot"></a>',
      '```md',
      '## Inside a fence',
      '```',
    ].join('\n'),
  );
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('check-links on written Markdown', () => {
  it('passes headings by their GitHub slugs, repeats, HTML ids, other sites and links inside code', async () => {
    const file = join(dir, 'good.md');
    await writeFile(
      file,
      [
        '[t](guide/target.md) [t](./guide/target.md#target) [t](guide/target.md#scopepkgwebhooks)',
        '[t](guide/target.md#errors) and [t](guide/target.md#errors-1) [t](guide/target.md#keys-ivs--tags-a128cbc-hs256)',
        '[t](guide/target.md#custom-spot) [t](guide/) [site](https://example.com/nowhere.md#gone) [m](mailto:a@b.c)',
        '[self](#own-heading) `[code](missing.md)`',
        '## Own heading',
        '```',
        '[in a fence](missing.md)',
        '```',
        '[ref]: guide/target.md#errors',
        '[repo](https://github.com/jwe-transport/jwe-transport/blob/main/README.md)',
      ].join('\n'),
    );
    const result = await check(file);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Links: 1 Markdown files, no broken link.\n');
  });

  it('names each missing file and anchor with its line, and exits 1', async () => {
    const file = join(dir, 'bad.md');
    await writeFile(
      file,
      [
        'Intro [gone](guide/missing.md).',
        '[anchor](guide/target.md#webhooks) [fenced](guide/target.md#inside-a-fence)',
        '[self](#nowhere)',
        '[ref]: ./guide/target.md#no-such',
        '[repo](https://github.com/jwe-transport/jwe-transport/tree/main/packages/no-such-package)',
      ].join('\n'),
    );
    const result = await check(file);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    const at = (line: number) =>
      lines
        .filter((text) => text.includes(`bad.md:${line}: `))
        .map((text) => text.split(': ').slice(1).join(': '));
    expect(at(1)).toEqual([expect.stringMatching(/^guide\/missing\.md: no file .*guide\/missing\.md$/)]);
    expect(at(2)).toEqual([
      expect.stringMatching(/^guide\/target\.md#webhooks: no heading or id "#webhooks" in .*target\.md$/),
      expect.stringMatching(/^guide\/target\.md#inside-a-fence: no heading or id "#inside-a-fence"/),
    ]);
    expect(at(3)).toEqual([expect.stringMatching(/^#nowhere: no heading or id "#nowhere" in .*bad\.md$/)]);
    expect(at(4)).toEqual([
      expect.stringMatching(/^\.\/guide\/target\.md#no-such: no heading or id "#no-such"/),
    ]);
    expect(at(5)).toEqual([expect.stringMatching(/no-such-package: no file packages\/no-such-package$/)]);
    expect(lines.at(-1)).toBe('6 broken link(s) in 1 Markdown files.');
  });
});

describe('check-links on the repository', () => {
  it('finds no broken relative link or anchor in any committed Markdown file', async () => {
    const result = await check();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Links: \d+ Markdown files, no broken link\.\n$/);
  });
});
