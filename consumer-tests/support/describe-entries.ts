import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { browserBundleProblems, loadFailures, peerSpecs, typeDiagnostics } from './entry-checks.js';
import { enginesRefusing, installProject, oursNotFromTarballs, treeProblems } from './npm-project.js';
import { entriesOf, publishedPackages } from './workspace.js';

/**
 * One fresh project with every tarball and every peer, installed with npm under the given Node;
 * then every entry of every package's `exports` is loaded, type-checked and (browser entries)
 * bundled there. Entries are read from the package.json files at run time.
 */
export function describeEntries(which: 'machine' | 'node24'): void {
  const { workDir, tarballs, nodes, npmCli } = inject('consumer');
  const node = nodes[which];
  const packages = publishedPackages();
  const entries = packages.flatMap((pkg) => entriesOf(pkg.manifest));
  const dir = join(workDir, `entries-${node.label}`);

  describe(`every entry point, installed from the tarballs with npm on Node ${node.major}`, () => {
    beforeAll(async () => {
      await installProject(dir, {
        node,
        npmCli,
        args: [...Object.values(tarballs), ...peerSpecs(packages)],
        tarballs,
      });
    });

    it('covers every published package', () => {
      expect(Object.keys(tarballs).sort()).toEqual(packages.map((pkg) => pkg.name));
      for (const pkg of packages) {
        expect(entriesOf(pkg.manifest).length, `${pkg.name} has no exports`).toBeGreaterThan(0);
      }
    });

    it('installs majors whose engines accept this Node, inside every peer range', async () => {
      expect(await enginesRefusing(dir, node)).toEqual([]);
      expect(await treeProblems(dir, { node, npmCli })).toEqual([]);
      expect(await oursNotFromTarballs(dir, tarballs)).toEqual([]);
    });

    it('loads with import and with require', async () => {
      expect(await loadFailures(dir, node, entries)).toEqual([]);
    });

    it('type-checks under moduleResolution node16', async () => {
      expect(await typeDiagnostics(dir, entries, 'node16')).toEqual([]);
    });

    it('type-checks under moduleResolution bundler', async () => {
      expect(await typeDiagnostics(dir, entries, 'bundler')).toEqual([]);
    });

    it('would see an entry that does not resolve', async () => {
      const missing = [{ specifier: '@jwe-transport/no-such-entry', javascript: true, browser: false }];
      expect((await typeDiagnostics(dir, missing, 'bundler')).join('\n')).toMatch(/no-such-entry/);
      expect(await loadFailures(dir, node, missing)).toHaveLength(2);
    });

    it('bundles the browser entries for browsers without a Node built-in', async () => {
      const browser = entries.filter((entry) => entry.browser);
      expect(browser.length).toBeGreaterThan(0);
      const problems = await Promise.all(browser.map((entry) => browserBundleProblems(dir, entry.specifier)));
      expect(problems.flat()).toEqual([]);
    });

    it('would see a Node built-in in a browser bundle', async () => {
      const problems = await browserBundleProblems(dir, 'node:crypto');
      expect(problems.join('\n')).toMatch(/node:crypto/);
    });
  });
}
