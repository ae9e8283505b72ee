import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tsBlocksOf } from '@jwe-transport/test-support/readme-blocks';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { type EchoService, startEchoService } from './echo-service.js';
import {
  cleanEnvironment,
  directDependencies,
  enginesRefusing,
  installedVersion,
  installProject,
  oursNotFromTarballs,
  treeProblems,
} from './npm-project.js';
import {
  binHelpFailure,
  checkExamples,
  IMPORT_DIAGNOSTICS,
  isComplete,
  runExample,
} from './readme-examples.js';
import {
  importedPackage,
  importsOf,
  installLinesOf,
  majorMarkOf,
  packageNameOf,
  targets,
} from './readme-install.js';
import { publishedPackages } from './workspace.js';

/**
 * Each package README as a new user follows it on one Node: its `npm install` lines for that Node
 * run in a fresh project (our packages from the tarballs, third-party packages from the registry
 * exactly as the lines name them); every TypeScript example must then find what it imports, and
 * every example complete enough to run runs to completion. A CLI's global install is made local
 * and each of its commands must answer `--help`.
 */
export function describeReadmes(which: 'machine' | 'node24'): void {
  const { workDir, tarballs, nodes, npmCli } = inject('consumer');
  const node = nodes[which];
  const readmes = publishedPackages()
    .map((pkg) => ({ pkg, path: join(pkg.dir, 'README.md') }))
    .map(({ pkg, path }) => ({ pkg, path, lines: installLinesOf(readFileSync(path, 'utf8')) }))
    .filter(({ lines }) => lines.length > 0);

  describe(`README install lines and examples, in a fresh project on Node ${node.major}`, () => {
    let echo: EchoService;
    beforeAll(async () => {
      echo = await startEchoService('consumer-key-16c');
    });
    afterAll(() => echo?.close());

    for (const { pkg, path, lines } of readmes) {
      it.concurrent(pkg.name, async ({ expect, onTestFinished }) => {
        const mine = lines.filter((line) => targets(line, node.major));
        expect(mine, `no install line of ${pkg.name}'s README is for Node ${node.major}`).not.toEqual([]);
        const specs = [...new Set(mine.flatMap((line) => line.specs))];
        const unknown = specs.filter(
          (spec) => spec.startsWith('@jwe-transport/') && !tarballs[packageNameOf(spec)],
        );
        expect(unknown, 'install lines name packages this repository does not publish').toEqual([]);
        const flags = [...new Set(mine.flatMap((line) => line.flags))].filter(
          (flag) => !['-g', '--global'].includes(flag),
        );
        const args = [...flags, ...specs.map((spec) => tarballs[packageNameOf(spec)] ?? spec)];
        const dir = join(workDir, `readme-${node.label}-${pkg.name.replace(/\W+/g, '-')}`);
        await installProject(dir, { node, npmCli, args, tarballs });

        const installed = await Promise.all(
          specs.map(
            async (spec) => `${packageNameOf(spec)}@${await installedVersion(dir, packageNameOf(spec))}`,
          ),
        );
        const summary = [
          `${node.label} ${pkg.name}: ${mine.map((line) => line.text.replace(/\s+#.*/, '')).join(' && ')}`,
          `  installed ${installed.join(' ')}`,
        ];
        // One report per README, printed when the test ends, passed or failed (CI logs read it).
        onTestFinished(() => console.log(summary.join('\n')));
        expect(await enginesRefusing(dir, node)).toEqual([]);
        expect(await treeProblems(dir, { node, npmCli })).toEqual([]);
        expect(await oursNotFromTarballs(dir, tarballs)).toEqual([]);

        const blocks = (await tsBlocksOf(path)).map((code, i) => ({
          name: `${pkg.name} README block ${i + 1}`,
          code,
        }));
        const applicable: typeof blocks = [];
        for (const block of blocks) {
          const mark = majorMarkOf(block.code);
          const version = mark && (await installedVersion(dir, mark.name));
          if (!mark || Number(version?.split('.')[0]) === mark.major) applicable.push(block);
        }
        // What npm's hoisting makes importable is not installed: pnpm would not find it.
        const direct = new Set(await directDependencies(dir));
        const notInstalled = applicable.flatMap((block) =>
          importsOf(block.code)
            .map(importedPackage)
            .filter((name): name is string => name !== undefined && !direct.has(name))
            .map((name) => `${block.name} imports ${name}, which the install lines do not install`),
        );
        expect(notInstalled).toEqual([]);

        const examples = await checkExamples(dir, applicable);
        const importProblems = examples.flatMap((example) =>
          example.diagnostics.filter((d) => IMPORT_DIAGNOSTICS.has(d.code)).map((d) => d.text),
        );
        expect(importProblems).toEqual([]);

        const runnable = examples.filter(isComplete);
        expect(runnable.flatMap((example) => example.diagnostics.map((d) => d.text))).toEqual([]);
        const failures: string[] = [];
        for (const example of runnable) {
          const failure = await runExample(dir, example, {
            node,
            origin: echo.url,
            value: echo.key,
            env: cleanEnvironment(),
          });
          if (failure) failures.push(failure);
        }
        summary.push(
          `  ran ${runnable.map((example) => example.name.replace(/.* /, '#')).join(', ') || 'no example'} of ${examples.length}`,
        );
        expect(failures).toEqual([]);

        for (const line of mine.filter((line) => line.global)) {
          for (const spec of line.specs) {
            const failure = await binHelpFailure(dir, packageNameOf(spec), node);
            expect(failure).toBeUndefined();
          }
        }
      });
    }
  });
}
