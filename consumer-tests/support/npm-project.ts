import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import type { NodeVersion } from './node-versions.js';

const run = promisify(execFile);

export interface InstallOptions {
  node: NodeVersion;
  npmCli: string;
  /** What follows `npm install`, e.g. `['--save-dev', '/tmp/x/jwe-transport-testing-0.1.0.tgz', 'msw@2']`. */
  args: string[];
  /** Our package names to tarball paths: every copy of ours in the tree comes from these. */
  tarballs: Record<string, string>;
}

export interface InstallResult {
  /** npm's own words, for a failing test's message. */
  output: string;
}

/**
 * A fresh project in `dir` (outside the workspace, so nothing of the repository's node_modules
 * can be found from it), installed by npm running under `options.node`. Our packages come from
 * the tarballs wherever they appear in the tree: npm `overrides` send every dependency on one of
 * them (a tarball's own `^0.1.0` on another of ours included) to its tarball, never to the
 * registry. Third-party packages come from the registry exactly as `args` name them.
 * (Not `--engine-strict`: third parties' own dependencies sometimes declare engines their parents
 * do not need; `enginesRefusing` checks what the install line names.)
 */
export async function installProject(dir: string, options: InstallOptions): Promise<InstallResult> {
  await mkdir(dir, { recursive: true });
  // npm refuses an override that differs from a direct dependency's own spec: a direct one
  // refers to itself (`$name`), the others to their tarballs.
  const named = new Set(options.args);
  const overrides = Object.fromEntries(
    Object.entries(options.tarballs).map(([name, path]) => [
      name,
      named.has(path) ? `$${name}` : `file:${path}`,
    ]),
  );
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module', overrides }, null, 2)}\n`,
  );
  const args = [
    options.npmCli,
    'install',
    '--no-audit',
    '--no-fund',
    '--no-update-notifier',
    '--prefer-offline',
    '--loglevel=warn',
    ...options.args,
  ];
  try {
    const { stdout, stderr } = await run(options.node.execPath, args, {
      cwd: dir,
      maxBuffer: 16 << 20,
      env: cleanEnvironment(),
    });
    return { output: `${stdout}${stderr}` };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `npm install ${options.args.join(' ')} failed on Node ${options.node.major}:\n${stdout}${stderr}`,
    );
  }
}

/** The version npm put at `node_modules/<name>`, or undefined. */
export async function installedVersion(dir: string, name: string): Promise<string | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** The names the project's package.json lists as its own (what the install line installed). */
export async function directDependencies(dir: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  return [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
}

// The environment of a user's shell: without the npm_* settings pnpm and vitest pass down.
export function cleanEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
  return { ...env, npm_config_update_notifier: 'false' };
}

/**
 * The project's direct dependencies whose `engines.node` does not accept `node`: a major the
 * install line names (or npm chose) that this Node cannot run.
 */
export async function enginesRefusing(dir: string, node: NodeVersion): Promise<string[]> {
  const refusing: string[] = [];
  for (const name of await directDependencies(dir)) {
    const manifest = JSON.parse(await readFile(join(dir, 'node_modules', name, 'package.json'), 'utf8'));
    const range: string | undefined = manifest.engines?.node;
    if (range && !semver.satisfies(node.version, range)) {
      refusing.push(`${name}@${manifest.version} needs Node ${range}, not ${node.version}`);
    }
  }
  return refusing;
}

/**
 * What `npm ls` finds wrong with the installed tree: a peer dependency outside its declared range
 * (npm installs a version the line names even when a peer range refuses it), a missing dependency.
 */
export async function treeProblems(
  dir: string,
  options: Pick<InstallOptions, 'node' | 'npmCli'>,
): Promise<string[]> {
  let stdout: string;
  try {
    ({ stdout } = await run(options.node.execPath, [options.npmCli, 'ls', '--all', '--json'], {
      cwd: dir,
      maxBuffer: 64 << 20,
      env: cleanEnvironment(),
    }));
  } catch (error) {
    // npm ls exits 1 when it finds problems; its JSON report is on stdout all the same.
    stdout = (error as { stdout?: string }).stdout ?? '';
  }
  const report = JSON.parse(stdout || '{}') as { problems?: string[] };
  return report.problems ?? [];
}

/**
 * Every copy of one of our packages in the installed tree that did not come from its tarball
 * (package-lock.json's `resolved`): the registry must never supply one of ours.
 */
export async function oursNotFromTarballs(dir: string, tarballs: Record<string, string>): Promise<string[]> {
  const lock = JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { resolved?: string; link?: boolean }>;
  };
  const copies = Object.entries(lock.packages).filter(([path]) =>
    Object.keys(tarballs).some((ours) => path.endsWith(`node_modules/${ours}`)),
  );
  if (copies.length === 0) return ['package-lock.json lists none of our packages'];
  return copies.flatMap(([path, entry]) => {
    const resolved = entry.resolved ?? '';
    return resolved.startsWith('file:') && resolved.endsWith('.tgz')
      ? []
      : [`${path} from ${resolved || 'nowhere'}`];
  });
}
