import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * Every ```ts block of the README is a complete module that must compile under the repository's
 * strict settings against the built package, as a user would paste it. The blocks are written
 * into a folder inside the package so that `@jwe-transport/express-middleware` resolves to this
 * package (self-reference through its "exports") and `express` to its dev dependency.
 */

const packageDir = join(import.meta.dirname, '..');
const workDir = join(import.meta.dirname, `.readme-blocks-${process.pid}`);

async function readmeBlocks(): Promise<string[]> {
  const readme = await readFile(join(packageDir, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

function diagnosticsOf(files: string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${diagnostic.file.fileName.slice(workDir.length + 1)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

describe('the README', () => {
  afterAll(() => rm(workDir, { recursive: true, force: true }));

  it('has TypeScript examples that compile under strict, req.file typed without casts', async () => {
    const blocks = await readmeBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    await mkdir(workDir, { recursive: true });
    const files = await Promise.all(
      blocks.map(async (block, i) => {
        const file = join(workDir, `block-${i + 1}.ts`);
        await writeFile(file, block);
        return file;
      }),
    );
    expect(diagnosticsOf(files)).toEqual([]);
  });

  it('would catch a block that does not compile', async () => {
    await mkdir(workDir, { recursive: true });
    const file = join(workDir, 'broken.ts');
    await writeFile(
      file,
      "import { jwe } from '@jwe-transport/express-middleware';\njwe({ keys: { k: process.env.KEY } });\n",
    );
    expect(diagnosticsOf([file]).join('\n')).toContain("Type 'string | undefined' is not assignable");
  });
});
