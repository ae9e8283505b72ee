import { readFile } from 'node:fs/promises';
import ts from 'typescript';

/** The body of every ```ts block of a README, in order. */
export async function tsBlocksOf(readmePath: string): Promise<string[]> {
  const readme = await readFile(readmePath, 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/**
 * The repository's own strict settings (tsconfig.base.json), as a user pasting a block would meet
 * them at their strictest.
 */
export const STRICT: ts.CompilerOptions = {
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
};

/**
 * Type-checks `files` under the strict settings; each diagnostic as `file:line message`, with the
 * file named relative to `workDir` so a failing README block is easy to find.
 */
export function strictDiagnostics(files: string[], workDir: string): string[] {
  const program = ts.createProgram(files, STRICT);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${diagnostic.file.fileName.slice(workDir.length + 1)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}
