import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { strictDiagnostics } from '@jwe-transport/test-support/readme-blocks';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * Every ```ts block of this README, and the ky blocks of the repository's README, must compile
 * under the repository's strict settings against the built package, as a user would paste them,
 * with ky 1.x's typings and with ky 2.x's. A block whose first line is `// ky 1.x` or `// ky 2.x`
 * is for that major only (ky 2.x renamed `prefixUrl` to `prefix`). The blocks are written into a
 * folder inside the package so that `@jwe-transport/ky-plugin` resolves to this package and `ky`
 * to its dev dependency; for ky 2.x, `'ky'` is read as the `ky2` alias this package also installs.
 */

const packageDir = join(import.meta.dirname, '..');
const workDir = join(import.meta.dirname, `.readme-blocks-${process.pid}`);

interface Block {
  source: string;
  code: string;
}

async function blocksOf(path: string, source: string, only?: (code: string) => boolean): Promise<Block[]> {
  const readme = await readFile(path, 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)]
    .map((match) => ({ source, code: match[1]! }))
    .filter((block) => only === undefined || only(block.code));
}

function majorOf(code: string): 1 | 2 | undefined {
  const first = /^\/\/ ky ([12])\.x/.exec(code);
  return first ? (Number(first[1]) as 1 | 2) : undefined;
}

async function writeBlocks(blocks: Block[], major: 1 | 2): Promise<string[]> {
  const dir = join(workDir, `ky${major}`);
  await mkdir(dir, { recursive: true });
  return Promise.all(
    blocks.map(async (block, i) => {
      const file = join(dir, `${block.source}-${i + 1}.ts`);
      const code = major === 2 ? block.code.replace(/from 'ky'/g, "from 'ky2'") : block.code;
      // Each block is a module of its own (top-level await, names that repeat across blocks).
      await writeFile(file, `${code}\nexport {};\n`);
      return file;
    }),
  );
}

describe('the README examples, on ky 1.x and ky 2.x', () => {
  afterAll(() => rm(workDir, { recursive: true, force: true }));

  for (const major of [1, 2] as const) {
    it(`compile under strict against ky ${major}.x's typings`, async () => {
      const blocks = [
        ...(await blocksOf(join(packageDir, 'README.md'), 'ky-plugin')),
        ...(await blocksOf(join(packageDir, '../../README.md'), 'root', (code) =>
          code.includes("from 'ky'"),
        )),
      ].filter((block) => (majorOf(block.code) ?? major) === major);
      expect(blocks.filter((block) => block.source === 'root').length).toBeGreaterThanOrEqual(1);
      expect(blocks.length).toBeGreaterThanOrEqual(4);
      expect(strictDiagnostics(await writeBlocks(blocks, major), workDir)).toEqual([]);
    });
  }

  it("would catch ky 1.x's prefixUrl on ky 2.x", async () => {
    const files = await writeBlocks(
      [
        {
          source: 'wrong',
          code: "import ky from 'ky';\nky.create({ prefixUrl: 'https://api.example.com' });\n",
        },
      ],
      2,
    );
    expect(strictDiagnostics(files, workDir).join('\n')).toContain('prefixUrl');
  });
});
