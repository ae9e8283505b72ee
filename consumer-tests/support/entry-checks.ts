import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import ts from 'typescript';
import type { NodeVersion } from './node-versions.js';
import { type Entry, type PublishedPackage, repoRoot } from './workspace.js';

const run = promisify(execFile);

/**
 * `name@range` for every peer of every package, so that every entry can be loaded. A peer that
 * some package requires (not optional) takes that package's range; npm checks the others.
 */
export function peerSpecs(packages: PublishedPackage[]): string[] {
  const chosen = new Map<string, { range: string; required: boolean }>();
  for (const { manifest } of packages) {
    const meta = (manifest as { peerDependenciesMeta?: Record<string, { optional?: boolean }> })
      .peerDependenciesMeta;
    for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
      const required = meta?.[name]?.optional !== true;
      const previous = chosen.get(name);
      if (!previous || (required && !previous.required)) chosen.set(name, { range, required });
    }
  }
  return [...chosen].map(([name, { range }]) => `${name}@${range}`);
}

export interface LoadFailure {
  specifier: string;
  how: 'import' | 'require' | 'resolve';
  error: string;
}

/**
 * Loads every entry in `dir` under `node`, as a user's ESM file (`import()`) and CommonJS file
 * (`require`) would. A JavaScript entry must load and export at least one name; any other entry
 * (an HTML page, package.json) must resolve to a file. Returns what failed.
 */
export async function loadFailures(dir: string, node: NodeVersion, entries: Entry[]): Promise<LoadFailure[]> {
  const script = join(dir, 'load-entries.mjs');
  await writeFile(
    script,
    `import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const require = createRequire(import.meta.url);
const entries = ${JSON.stringify(entries)};
const failures = [];
const fail = (specifier, how, error) =>
  failures.push({ specifier, how, error: String(error?.stack ?? error).split('\\n').slice(0, 4).join('\\n') });
for (const { specifier, javascript } of entries) {
  if (!javascript) {
    try {
      if (!existsSync(fileURLToPath(import.meta.resolve(specifier)))) throw new Error('resolves to a missing file');
      if (!existsSync(require.resolve(specifier))) throw new Error('resolves to a missing file');
    } catch (error) { fail(specifier, 'resolve', error); }
    continue;
  }
  try {
    const namespace = await import(specifier);
    if (Object.keys(namespace).length === 0) throw new Error('exports no name');
  } catch (error) { fail(specifier, 'import', error); }
  try {
    const exported = require(specifier);
    if (Object.keys(exported).length === 0) throw new Error('exports no name');
  } catch (error) { fail(specifier, 'require', error); }
}
console.log(JSON.stringify(failures));
process.exit(0);
`,
  );
  const { stdout } = await run(node.execPath, [script], { cwd: dir, maxBuffer: 16 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

export type Resolution = 'node16' | 'bundler';

const BASE: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  types: ['node'],
  // A user's project has @types/node; the repository's copy stands in for it.
  typeRoots: [join(repoRoot, 'node_modules', '@types')],
};

/**
 * Type-checks, in `dir`, a file that imports every JavaScript entry, as a user's code would under
 * `moduleResolution` `node16` (an ESM file and a CommonJS `.cts` file: the `import` and `require`
 * typings) or `bundler`. Our own `.d.ts` files are checked too (no `skipLibCheck` for them).
 * Returns each diagnostic as `file:line message`.
 */
export async function typeDiagnostics(
  dir: string,
  entries: Entry[],
  resolution: Resolution,
): Promise<string[]> {
  const javascript = entries.filter((entry) => entry.javascript);
  const esm = join(dir, `entries-${resolution}.ts`);
  await writeFile(
    esm,
    `${javascript.map((entry, i) => `import * as entry${i} from '${entry.specifier}';`).join('\n')}
export const entries = [${javascript.map((_, i) => `entry${i}`).join(', ')}];
`,
  );
  const files = [esm];
  if (resolution === 'node16') {
    const cjs = join(dir, 'entries-node16.cts');
    await writeFile(
      cjs,
      `${javascript.map((entry, i) => `import entry${i} = require('${entry.specifier}');`).join('\n')}
export const entries = [${javascript.map((_, i) => `entry${i}`).join(', ')}];
`,
    );
    files.push(cjs);
  }
  const options: ts.CompilerOptions =
    resolution === 'node16'
      ? { ...BASE, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }
      : { ...BASE, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
  // One program per file: a project is either ESM or CommonJS. (Both in one program would load
  // the .d.ts and the .d.cts copies of the same module augmentation side by side.)
  return files.flatMap((file) => diagnosticsOf(ts.createProgram([file], options), dir));
}

// Only our files are checked (lazily, so third parties' typings cost nothing beyond what ours use).
function diagnosticsOf(program: ts.Program, dir: string): string[] {
  const ours = program.getSourceFiles().filter((file) => isOurs(file.fileName, dir));
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((file) => [
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    ]),
  ].map((diagnostic) => {
    const where = diagnostic.file
      ? `${diagnostic.file.fileName.slice(dir.length + 1)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

// Our entry files and our packages' .d.ts; a third party's typings are its own business.
function isOurs(fileName: string, dir: string): boolean {
  return (
    fileName.startsWith(dir) &&
    (!fileName.includes('/node_modules/') || fileName.includes('/node_modules/@jwe-transport/'))
  );
}

/**
 * Bundles `specifier` from `dir` for browsers with esbuild (platform `browser`, the conditions a
 * browser bundler uses). Returns esbuild's errors, and every Node built-in the bundle would need:
 * esbuild cannot resolve one for a browser, and a `node:` import left for run time would fail there.
 */
export async function browserBundleProblems(dir: string, specifier: string): Promise<string[]> {
  try {
    const result = await build({
      stdin: { contents: `export * from '${specifier}';\n`, resolveDir: dir, loader: 'js' },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const builtIns = Object.values(result.metafile.inputs).flatMap((input) =>
      input.imports.filter((imported) => imported.external).map((imported) => imported.path),
    );
    const text = result.outputFiles.map((file) => file.text).join('\n');
    // A lookup at run time (`process.getBuiltinModule?.('node:…')`, guarded) is allowed; a
    // static import, require() or import() of a built-in is not.
    const nodeSchemes = [
      ...text.matchAll(/(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*)["'](node:[a-z_/]+)["']/g),
    ].map((match) => match[1]!);
    return [...builtIns, ...nodeSchemes].map((name) => `${specifier} needs ${name}`);
  } catch (error) {
    const errors = (error as { errors?: { text: string; location?: { file: string } | null }[] }).errors;
    if (!errors) throw error;
    return errors.map((e) => `${specifier}: ${e.location?.file ?? ''} ${e.text}`);
  }
}
