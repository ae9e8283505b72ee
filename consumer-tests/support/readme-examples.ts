import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { STRICT } from '@jwe-transport/test-support/readme-blocks';
import ts from 'typescript';
import type { NodeVersion } from './node-versions.js';
import { repoRoot } from './workspace.js';

const run = promisify(execFile);

export interface Example {
  /** `README.md block 3`. */
  name: string;
  code: string;
}

export interface CheckedExample extends Example {
  file: string;
  diagnostics: { code: number; text: string }[];
}

// The repository's strict settings, resolved as a user's ESM project resolves (NodeNext), with
// the workspace's @types beside the fresh project's node_modules.
const STRICT_HERE: ts.CompilerOptions = { ...STRICT, typeRoots: [join(repoRoot, 'node_modules', '@types')] };

/**
 * Diagnostics that mean an import does not work in this project: a module that is not installed
 * or has no typings, a name the module does not export. Other diagnostics (a name the README
 * leaves to the reader, such as `sharedKey`) are the README's business, checked elsewhere.
 */
export const IMPORT_DIAGNOSTICS = new Set([2305, 2307, 2614, 2694, 2724, 2792, 7016, 1479, 1471]);

/** Writes each example into `dir/readme/` as a module of its own and type-checks them together. */
export async function checkExamples(dir: string, examples: Example[]): Promise<CheckedExample[]> {
  const folder = join(dir, 'readme');
  await mkdir(folder, { recursive: true });
  const files = await Promise.all(
    examples.map(async (example, i) => {
      const file = join(folder, `example-${i + 1}.ts`);
      await writeFile(file, `${example.code}\nexport {};\n`);
      return file;
    }),
  );
  const program = ts.createProgram(files, STRICT_HERE);
  return examples.map((example, i) => {
    const source = program.getSourceFile(files[i]!)!;
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ].map((diagnostic) => ({
      code: diagnostic.code,
      text: `${example.name}:${source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
    }));
    return { ...example, file: files[i]!, diagnostics };
  });
}

/** "Cannot find name": the example leaves a value to the reader (`sharedKey`, `app`). */
const FREE_NAME_DIAGNOSTICS = new Set([2304, 2552, 2582]);

/**
 * Whether an example is complete enough to run as it is, read from its code alone (not from how
 * well it type-checks against what was installed, so that a breaking major cannot quietly turn a
 * runnable example into a skipped one): it uses no name it does not define, declares nothing,
 * binds no fixed port (tests use port 0 only), reads no file of the reader's own, and is not for
 * browsers. A complete example must then type-check without any diagnostic, and run.
 */
export function isComplete(example: CheckedExample): boolean {
  const { code } = example;
  return (
    !example.diagnostics.some((diagnostic) => FREE_NAME_DIAGNOSTICS.has(diagnostic.code)) &&
    !/^\s*declare\s/m.test(code) &&
    !/\.listen\(\s*[1-9]|\bport:\s*[1-9]/.test(code) &&
    !/\(\s*['"][\w./-]+\.(?:pdf|wav|mp3|dcm|json|txt|har|png|jpe?g)['"]/.test(code) &&
    !/from\s+['"][^'"]*\/browser['"]/.test(code) &&
    !/\b(?:window|document)\./.test(code)
  );
}

/** The environment variables an example reads (`process.env.X`, `requireEnv('X')`). */
export function environmentOf(code: string): string[] {
  return [
    ...new Set(
      [
        ...code.matchAll(/process\.env\.([A-Z_][A-Z0-9_]*)/g),
        ...code.matchAll(/requireEnv\(\s*['"]([A-Z_][A-Z0-9_]*)['"]\s*\)/g),
      ].map((match) => match[1]!),
    ),
  ];
}

export interface RunOptions {
  node: NodeVersion;
  /** Replaces `https://api.example.com`, the origin every README example calls. */
  origin: string;
  /** The value of every environment variable the example reads (a key). */
  value: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Runs an example in its project under `options.node` as the ES module TypeScript makes of it, with
 * `https://api.example.com` pointed at a local server and its environment variables set. Resolves
 * to undefined when it ran to completion, or to what went wrong.
 */
export async function runExample(
  dir: string,
  example: CheckedExample,
  options: RunOptions,
): Promise<string | undefined> {
  const source = example.code.replaceAll('https://api.example.com', options.origin);
  const { outputText } = ts.transpileModule(`${source}\nexport {};\n`, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  const file = example.file.replace(/\.ts$/, '.mjs');
  await writeFile(file, outputText);
  const env = { ...options.env };
  for (const name of environmentOf(example.code)) env[name] = options.value;
  try {
    await run(options.node.execPath, [file], { cwd: dir, env, timeout: 60_000, maxBuffer: 16 << 20 });
    return undefined;
  } catch (error) {
    const {
      stderr = '',
      stdout = '',
      message,
    } = error as { stderr?: string; stdout?: string; message: string };
    return `${example.name} failed on Node ${options.node.version}: ${(stderr || stdout || message).trim().split('\n').slice(0, 12).join('\n')}`;
  }
}

/**
 * Runs every command a package installs (`bin`) with `--help` under `node`, as the README's
 * `npx -p … <command> --help` does. Resolves to undefined, or to what went wrong.
 */
export async function binHelpFailure(
  dir: string,
  name: string,
  node: NodeVersion,
): Promise<string | undefined> {
  const packageDir = join(dir, 'node_modules', name);
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8'));
  const bins: Record<string, string> =
    typeof manifest.bin === 'string' ? { [name.split('/').at(-1)!]: manifest.bin } : (manifest.bin ?? {});
  if (Object.keys(bins).length === 0) return `${name} installs no command`;
  for (const [command, path] of Object.entries(bins)) {
    try {
      const { stdout } = await run(node.execPath, [join(packageDir, path), '--help'], {
        cwd: dir,
        timeout: 30_000,
      });
      if (!stdout.includes(command)) return `${command} --help does not name the command:\n${stdout}`;
    } catch (error) {
      return `${command} --help failed on Node ${node.version}: ${(error as Error).message}`;
    }
  }
  return undefined;
}
