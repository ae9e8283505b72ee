import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsBlocksOf } from '@jwe-transport/test-support/readme-blocks';
import { describe, expect, it } from 'vitest';
import { machineNode } from './support/node-versions.js';
import { checkExamples, isComplete, runExample } from './support/readme-examples.js';
import {
  importedPackage,
  importsOf,
  installLinesOf,
  namedMajor,
  packageNameOf,
} from './support/readme-install.js';
import { publishedPackages } from './support/workspace.js';

/*
 * What each package README tells a user to install, read before anything is installed: a line
 * without a major lets npm, pnpm or yarn pick whatever is newest (MSW 3, undici 8, ky 2), which
 * may not run on the user's Node; an example that imports a package no install line names works
 * with npm's hoisting only by accident, and fails under pnpm.
 */
describe('README install lines', () => {
  const readmes = publishedPackages().map((pkg) => {
    const text = readFileSync(join(pkg.dir, 'README.md'), 'utf8');
    return { pkg, path: join(pkg.dir, 'README.md'), lines: installLinesOf(text) };
  });

  for (const { pkg, path, lines } of readmes) {
    describe(pkg.name, () => {
      it('name the major of every third-party package', () => {
        const unpinned = lines.flatMap((line) =>
          line.specs
            .filter((spec) => !spec.startsWith('@jwe-transport/') && namedMajor(spec) === undefined)
            .map((spec) => `${spec} in: ${line.text}`),
        );
        expect(unpinned).toEqual([]);
      });

      it('install every package its examples import', async () => {
        const named = new Set(lines.flatMap((line) => line.specs.map(packageNameOf)));
        const blocks = await tsBlocksOf(path);
        const missing = [
          ...new Set(
            blocks
              .flatMap(importsOf)
              .map(importedPackage)
              .filter((name): name is string => name !== undefined && !named.has(name)),
          ),
        ];
        expect(missing, lines.length === 0 ? 'the README has no npm install line' : '').toEqual([]);
      });
    });
  }

  it('are read from shell blocks, with the Node a line is for', () => {
    const lines = installLinesOf(
      [
        '```sh',
        'npm install @jwe-transport/ky-plugin ky@2   # Node 22 and later',
        '$ npm install --save-dev @jwe-transport/testing msw@2   # Node 20',
        'npm install ioredis   # or: npm install redis',
        'pnpm add ky',
        '```',
      ].join('\n'),
    );
    expect(lines.map(({ specs, flags, nodes }) => ({ specs, flags, nodes }))).toEqual([
      { specs: ['@jwe-transport/ky-plugin', 'ky@2'], flags: [], nodes: { min: 22 } },
      { specs: ['@jwe-transport/testing', 'msw@2'], flags: ['--save-dev'], nodes: { min: 20, max: 20 } },
      { specs: ['ioredis'], flags: [], nodes: undefined },
    ]);
    expect(namedMajor('ioredis')).toBeUndefined();
    expect(namedMajor('msw@latest')).toBeUndefined();
    expect(namedMajor('@types/express@5')).toBe(5);
  });
});

describe('README examples', () => {
  it('run only when complete, and a failing one is reported', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jwe-transport-consumer-examples-'));
    try {
      const [fragment, declared, server, complete] = await checkExamples(dir, [
        { name: 'fragment', code: 'console.log(sharedKey);' },
        { name: 'declared', code: 'declare const key: string;\nconsole.log(key);' },
        { name: 'server', code: "import { createServer } from 'node:http';\ncreateServer().listen(8080);" },
        {
          name: 'complete',
          code: "throw new Error('boom ' + process.env.SHARED_KEY + ' https://api.example.com');",
        },
      ]);
      expect([fragment, declared, server, complete].map((example) => isComplete(example!))).toEqual([
        false,
        false,
        false,
        true,
      ]);
      const failure = await runExample(dir, complete!, {
        node: machineNode(),
        origin: 'http://127.0.0.1:1',
        value: 'the-key',
        env: {},
      });
      expect(failure).toMatch(/boom the-key http:\/\/127\.0\.0\.1:1/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
