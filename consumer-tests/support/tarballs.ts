import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { entriesOf, type PublishedPackage } from './workspace.js';

const run = promisify(execFile);

/**
 * `pnpm pack` of every published package into `destination`, as `pnpm publish` would upload them
 * (pnpm turns `workspace:` ranges into the packages' versions): package name to tarball path.
 * The packages must be built: a package whose entry files are missing from its folder is refused
 * here, before an install could hide it.
 */
export async function packAll(
  packages: PublishedPackage[],
  destination: string,
): Promise<Record<string, string>> {
  const tarballs: Record<string, string> = {};
  for (const pkg of packages) {
    const missing = await missingFilesOf(pkg);
    if (missing.length > 0) {
      throw new Error(`${pkg.name} is not built (no ${missing.join(', ')}): run pnpm build first.`);
    }
  }
  await Promise.all(
    packages.map(async (pkg) => {
      const { stdout } = await run('pnpm', ['pack', '--pack-destination', destination, '--json'], {
        cwd: pkg.dir,
        maxBuffer: 16 << 20,
      });
      tarballs[pkg.name] = (JSON.parse(stdout) as { filename: string }).filename;
    }),
  );
  return tarballs;
}

async function missingFilesOf(pkg: PublishedPackage): Promise<string[]> {
  const targets = new Set<string>();
  const collect = (value: unknown): void => {
    if (typeof value === 'string') targets.add(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  if (entriesOf(pkg.manifest).length > 0) collect(pkg.manifest.exports);
  const missing: string[] = [];
  for (const target of targets) {
    if (target.includes('*')) continue;
    try {
      await access(join(pkg.dir, target));
    } catch {
      missing.push(target);
    }
  }
  return missing;
}
