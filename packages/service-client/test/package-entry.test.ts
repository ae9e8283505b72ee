// The default entry runs in browsers, Deno and Bun: neither it nor any chunk it loads imports a
// Node built-in. Reading files from disk is the `/node` subpath's job.
import { readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
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

it('the /auth, /transcription and /webhooks subpaths load no Node built-in either', () => {
  for (const entry of ['auth.js', 'transcription.js', 'webhooks.js'])
    expect(specifiers(entry).filter(isBuiltin), entry).toEqual([]);
});

const ROOT_EXPORTS = [
  'AuthError',
  'MemoryStore',
  'TranscriptionError',
  'WebhookError',
  'createServiceClient',
  'isAuthError',
  'isTranscriptionError',
  'isWebhookError',
  'verifyWebhook',
];

it('the root exports only the common entry points; each area has the rest, internals are nowhere', async () => {
  const root = await import('@jwe-transport/service-client');
  expect(Object.keys(root).sort()).toEqual(ROOT_EXPORTS);
  const areas = {
    auth: await import('@jwe-transport/service-client/auth'),
    transcription: await import('@jwe-transport/service-client/transcription'),
    webhooks: await import('@jwe-transport/service-client/webhooks'),
  };
  expect(Object.keys(areas.auth)).toEqual(
    expect.arrayContaining(['createTokenSession', 'withBearer', 'AuthError']),
  );
  expect(Object.keys(areas.transcription)).toEqual(
    expect.arrayContaining(['decodeSessionResult', 'uploadToStorage', 'TEMPLATE_IDS', 'TranscriptionError']),
  );
  expect(Object.keys(areas.webhooks)).toEqual(
    expect.arrayContaining([
      'verifyWebhook',
      'webhookHandler',
      'createWebhookProcessor',
      'signWebhookPayload',
    ]),
  );
  const everything = new Set([...Object.values(areas), root].flatMap((area) => Object.keys(area)));
  for (const internal of [
    'refusal',
    'internalFailure',
    'boundedStoreCall',
    'storeTimeoutOf',
    'signingKeysOf',
  ])
    expect(everything.has(internal), internal).toBe(false);
});

it('every subpath in package.json loads from ESM and from CommonJS, with the same error classes', async () => {
  const manifest = JSON.parse(readFileSync(join(dist, '..', 'package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
  };
  const require = createRequire(import.meta.url);
  const subpaths = Object.keys(manifest.exports).filter((subpath) => subpath !== './package.json');
  expect(subpaths).toEqual([
    '.',
    './auth',
    './transcription',
    './webhooks',
    './node',
    './redis',
    './express',
    './ky',
    './fastify',
    './hono',
  ]);
  for (const subpath of subpaths) {
    const name = `@jwe-transport/service-client${subpath.slice(1)}`;
    expect(Object.keys(await import(name)).length, name).toBeGreaterThan(0);
    expect(Object.keys(require(name)).length, name).toBeGreaterThan(0);
  }
  const webhooks = await import('@jwe-transport/service-client/webhooks');
  const express = await import('@jwe-transport/service-client/express');
  expect(express.WebhookError).toBe(webhooks.WebhookError);
});
