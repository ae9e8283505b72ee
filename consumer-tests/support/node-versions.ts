import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface NodeVersion {
  /** `node20`, `node24`: how results are named. */
  label: string;
  major: number;
  /** `20.20.2`. */
  version: string;
  /** The node binary. */
  execPath: string;
}

/** The machine's Node (20 in CI). */
export function machineNode(): NodeVersion {
  const major = Number(process.versions.node.split('.')[0]);
  return { label: `node${major}`, major, version: process.versions.node, execPath: process.execPath };
}

/**
 * Node 24 as CI gets it, from the npm `node` package through `npx -y -p node@24` (once: the binary
 * it names is then called directly).
 */
export async function node24(): Promise<NodeVersion> {
  const { stdout } = await run('npx', ['-y', '-p', 'node@24', 'node', '-p', 'process.execPath'], {
    maxBuffer: 1 << 20,
  });
  const execPath = stdout.trim();
  const { stdout: version } = await run(execPath, ['-p', 'process.versions.node']);
  const major = Number(version.trim().split('.')[0]);
  if (major !== 24) throw new Error(`npx -p node@24 gave Node ${version.trim()}`);
  return { label: 'node24', major, version: version.trim(), execPath };
}

/**
 * npm's own script, so that npm can be run by any Node binary: a user on Node 24 runs npm under
 * Node 24, and npm prefers versions whose `engines` accept the Node it runs on.
 */
export async function npmCliPath(): Promise<string> {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    try {
      return await realpath(join(dir, 'npm'));
    } catch {}
  }
  throw new Error('npm is not on PATH');
}
