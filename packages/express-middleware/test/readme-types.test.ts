import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { strictDiagnostics, tsBlocksOf } from '@jwe-transport/test-support/readme-blocks';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * Every ```ts block of the README is a complete module that must compile under the repository's
 * strict settings against the built package, as a user would paste it. The blocks are written
 * into a folder inside the package so that `@jwe-transport/express-middleware` resolves to this
 * package (self-reference through its "exports") and `express` to its dev dependency.
 */

const packageDir = join(import.meta.dirname, '..');
const workDir = join(import.meta.dirname, `.readme-blocks-${process.pid}`);

describe('the README', () => {
  afterAll(() => rm(workDir, { recursive: true, force: true }));

  it('has TypeScript examples that compile under strict, req.file typed without casts', async () => {
    const blocks = await tsBlocksOf(join(packageDir, 'README.md'));
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    await mkdir(workDir, { recursive: true });
    const files = await Promise.all(
      blocks.map(async (block, i) => {
        const file = join(workDir, `block-${i + 1}.ts`);
        await writeFile(file, block);
        return file;
      }),
    );
    expect(strictDiagnostics(files, workDir)).toEqual([]);
  });

  it('would catch a block that does not compile', async () => {
    await mkdir(workDir, { recursive: true });
    const file = join(workDir, 'broken.ts');
    await writeFile(
      file,
      "import { jwe } from '@jwe-transport/express-middleware';\njwe({ keys: { k: process.env.KEY } });\n",
    );
    expect(strictDiagnostics([file], workDir).join('\n')).toContain(
      "Type 'string | undefined' is not assignable",
    );
  });
});
