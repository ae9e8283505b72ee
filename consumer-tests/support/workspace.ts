import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root folder. */
export const repoRoot = join(import.meta.dirname, '..', '..');

export interface PublishedPackage {
  name: string;
  dir: string;
  manifest: PackageManifest;
}

export interface PackageManifest {
  name: string;
  private?: boolean;
  exports?: unknown;
  imports?: unknown;
  bin?: string | Record<string, string>;
  peerDependencies?: Record<string, string>;
}

export interface Entry {
  /** What a user writes: `@jwe-transport/codec`, `@jwe-transport/codec/diagnostics`. */
  specifier: string;
  /** Every target of the entry is a JavaScript module (not `package.json`, not an HTML page). */
  javascript: boolean;
  /**
   * The entry has a `browser` condition, or its package picks modules for browsers through a
   * `browser` condition of its `imports` map (`#backend`): browsers get a build of their own.
   */
  browser: boolean;
}

/**
 * Every package a user can install: each folder of packages/ whose package.json is not private.
 * Read at run time, so packages added, renamed or made private are followed without editing here.
 */
export function publishedPackages(): PublishedPackage[] {
  const root = join(repoRoot, 'packages');
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const dir = join(root, entry.name);
      let manifest: PackageManifest;
      try {
        manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      } catch {
        return [];
      }
      return manifest.private ? [] : [{ name: manifest.name, dir, manifest }];
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

function targetsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(targetsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(targetsOf);
  return [];
}

function hasCondition(value: unknown, condition: string): boolean {
  if (!value || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, inner]) => key === condition || hasCondition(inner, condition));
}

/** The entry points of a package's `exports` map (a bare string or condition map is the root). */
export function entriesOf(manifest: PackageManifest): Entry[] {
  const { exports } = manifest;
  if (exports === undefined) return [];
  const subpaths =
    typeof exports === 'string' ||
    Array.isArray(exports) ||
    !Object.keys(exports as object).some((key) => key.startsWith('.'))
      ? { '.': exports }
      : (exports as Record<string, unknown>);
  return Object.entries(subpaths)
    .filter(([subpath]) => !subpath.includes('*'))
    .map(([subpath, value]) => {
      const targets = targetsOf(value).filter(
        (target) => !target.endsWith('.d.ts') && !/\.d\.[cm]ts$/.test(target),
      );
      return {
        specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
        javascript: targets.length > 0 && targets.every((target) => /\.[cm]?js$/.test(target)),
        browser:
          hasCondition(value, 'browser') || (targets.length > 0 && hasCondition(manifest.imports, 'browser')),
      };
    });
}
