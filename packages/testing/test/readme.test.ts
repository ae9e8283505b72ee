import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { strictDiagnostics, tsBlocksOf } from '@jwe-transport/test-support/readme-blocks';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * Every ```ts block of the README is a complete module. Each must compile under the repository's
 * strict settings against the built package, as a user would paste it; each Node block (all but
 * the setupWorker one, which needs a page) must also run to completion: they check their own
 * results with node:assert. The blocks are written into a folder inside the package so that
 * `@jwe-transport/testing` resolves to this package through its "exports", and the clients to its
 * dev dependencies.
 */

const run = promisify(execFile);
const packageDir = join(import.meta.dirname, '..');
const workDir = join(import.meta.dirname, `.readme-blocks-${process.pid}`);

let blocks: string[];
beforeAll(async () => {
  blocks = await tsBlocksOf(join(packageDir, 'README.md'));
  // No package.json of its own: this package's ("type": "module", "exports") applies to the blocks.
  await mkdir(workDir, { recursive: true });
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

describe('the README', () => {
  it('has TypeScript examples that compile under strict settings', async () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
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
    const file = join(workDir, 'broken.ts');
    await writeFile(
      file,
      "import { createJweHttp } from '@jwe-transport/testing';\ncreateJweHttp({ key: 'x' });\n",
    );
    expect(strictDiagnostics([file], workDir).join('\n')).toMatch(/'key' does not exist|not assignable/);
  });

  it('has Node examples that run to completion', async () => {
    const runnable = blocks.filter((block) => !block.includes("'msw/browser'"));
    expect(runnable.length).toBe(blocks.length - 1);
    for (const [i, block] of runnable.entries()) {
      const file = join(workDir, `run-${i + 1}.mjs`);
      const { outputText } = ts.transpileModule(block, {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      });
      await writeFile(file, outputText);
      // Rejects (with the block's stderr) if an assertion in the block fails.
      await expect(run(process.execPath, [file], { cwd: workDir })).resolves.toBeDefined();
    }
  });
});
