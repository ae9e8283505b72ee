// The default entry runs in browsers, Deno and Bun: neither it nor any chunk it loads imports a
// Node built-in. Reading files from disk is the `/node` subpath's job.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const builtins = new Set(builtinModules);
const IMPORT =
  /(?:^|[;\n])\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module specifier `file` and the local chunks it loads import, transitively. */
function specifiers(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const found: string[] = [];
  for (const match of readFileSync(join(dist, file), 'utf8').matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? '';
    if (specifier.startsWith('./')) found.push(...specifiers(specifier.slice(2), seen));
    else found.push(specifier);
  }
  return found;
}

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtins.has(specifier);

it('the default ESM entry loads no Node built-in, and no package but the codec (its errors base class)', () => {
  const imported = specifiers('index.js');
  expect(imported.filter(isBuiltin)).toEqual([]);
  expect([...new Set(imported)]).toEqual(['@jwe-transport/codec']);
});

it('the /node, /redis and /hono subpaths keep their own needs to themselves', () => {
  expect(specifiers('node.js').filter(isBuiltin).sort()).toEqual(['node:fs/promises', 'node:path']);
  // The Redis clients are loaded only by connectRedisStore(), and only the one it uses.
  expect([...new Set(specifiers('redis.js'))].sort()).toEqual(['@jwe-transport/codec', 'ioredis', 'redis']);
  expect([...new Set(specifiers('hono.js'))]).toEqual(['@jwe-transport/codec']);
});
