#!/usr/bin/env node
// API reports: one `api-reports/<package>/<entry>.api.md` per entry point of every published
// package, written by API Extractor from the built .d.ts (run `pnpm build` first). With --check
// nothing is written: it fails when a built surface differs from its committed report, or when a
// report has no entry point any more, so every change to what a package promises shows in review.
//
//   node scripts/api-report.mjs          write the reports (pnpm api:report)
//   node scripts/api-report.mjs --check  compare only (pnpm api:check, CI)
//   node scripts/api-report.mjs codec    only the named packages (with or without --check)
//
// An entry point whose types differ by export condition (a Node or Deno build beside the default
// one) gets one report per build: `<entry>.api.md` for the default, `<entry>.node.api.md` for Node
// and `<entry>.deno.api.md` for Deno.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const reportsRoot = join(root, 'api-reports');
const check = process.argv.includes('--check');
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));

/** The runtime conditions an entry point may name; each is followed only when asked for. */
const RUNTIME_CONDITIONS = new Set(['node', 'deno', 'browser']);

/** The `.d.ts` an import of `target` resolves to under `condition` (`node`, `deno` or anything else). */
function typesFor(target, condition) {
  if (typeof target === 'string') return target.endsWith('.d.ts') ? target : undefined;
  if (target === null || typeof target !== 'object') return undefined;
  for (const [key, value] of Object.entries(target)) {
    if (key === 'require') continue;
    if (RUNTIME_CONDITIONS.has(key) && key !== condition) continue;
    const found = typesFor(value, condition);
    if (found) return found;
  }
  return undefined;
}

/** Every entry point of every published package, with the report each of its builds gets. */
function entryPoints() {
  const entries = [];
  for (const name of readdirSync(join(root, 'packages')).sort()) {
    const dir = join(root, 'packages', name);
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    if (pkg.private || (only.length > 0 && !only.includes(name))) continue;
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      const base = subpath === '.' ? 'index' : subpath.slice(2).replaceAll('/', '-');
      const byDefault = typesFor(target, 'default');
      const byNode = typesFor(target, 'node');
      const byDeno = typesFor(target, 'deno');
      if (byDefault) entries.push({ name, dir, report: base, types: byDefault });
      if (byNode && byNode !== byDefault) {
        entries.push({ name, dir, report: byDefault ? `${base}.node` : base, types: byNode });
      }
      if (byDeno && byDeno !== byDefault && byDeno !== byNode) {
        entries.push({ name, dir, report: `${base}.deno`, types: byDeno });
      }
    }
  }
  return entries;
}

const compilerOptions = {
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'es2022',
  lib: ['es2023', 'dom', 'dom.iterable'],
  strict: true,
  skipLibCheck: true,
  // Node's globals (Buffer) for the Node builds; the repository's @types/node serves every package.
  types: ['node'],
  typeRoots: [join(root, 'node_modules/@types')],
};

function extract(entry, tempFolder) {
  const reportFolder = join(reportsRoot, entry.name);
  mkdirSync(reportFolder, { recursive: true });
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: entry.dir,
      mainEntryPointFilePath: join(entry.dir, entry.types),
      compiler: { overrideTsconfig: { compilerOptions, include: [join(entry.dir, entry.types)] } },
      apiReport: {
        enabled: true,
        reportFolder,
        reportTempFolder: tempFolder,
        reportFileName: `${entry.report}.api.md`,
        includeForgottenExports: true,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        // Release tags (@public, @beta) are not used here: every exported name is public.
        extractorMessageReporting: {
          default: { logLevel: 'warning' },
          'ae-missing-release-tag': { logLevel: 'none' },
          'ae-undocumented': { logLevel: 'none' },
          // Doc-comment placement and {@link} targets are documentation matters, not the surface.
          'ae-misplaced-package-tag': { logLevel: 'none' },
          'ae-unresolved-link': { logLevel: 'none' },
          // A type the entry's names use but do not export: the report shows its declaration
          // (includeForgottenExports), without a warning that would name a hashed dist chunk.
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: false },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(entry.dir, 'package.json'),
  });
  const result = Extractor.invoke(config, {
    localBuild: !check,
    messageCallback(message) {
      // API Extractor's own progress lines; warnings and errors still print.
      if (message.logLevel === 'info' || message.logLevel === 'verbose') message.handled = true;
    },
  });
  return { ...entry, file: join(reportFolder, `${entry.report}.api.md`), result };
}

const tempFolder = mkdtempSync(join(tmpdir(), 'api-report-'));
const problems = [];
const expected = new Set();
try {
  for (const entry of entryPoints()) {
    if (!existsSync(join(entry.dir, entry.types))) {
      problems.push(`${entry.name}: ${entry.types} is missing; run pnpm build first`);
      continue;
    }
    const { file, result } = extract(entry, tempFolder);
    expected.add(file);
    const shown = relative(root, file);
    if (check && result.apiReportChanged) problems.push(`${shown} differs from the built surface`);
    else if (!result.succeeded) problems.push(`${shown}: API Extractor failed (${result.errorCount} errors)`);
    else console.log(`${check ? 'same' : 'wrote'} ${shown}`);
  }
  // A report whose entry point is gone would otherwise keep promising its names.
  if (existsSync(reportsRoot)) {
    for (const folder of readdirSync(reportsRoot)) {
      if (only.length > 0 && !only.includes(folder)) continue;
      for (const report of readdirSync(join(reportsRoot, folder))) {
        const file = join(reportsRoot, folder, report);
        if (expected.has(file)) continue;
        if (check) problems.push(`${relative(root, file)} has no entry point any more`);
        else rmSync(file);
      }
    }
  }
} finally {
  rmSync(tempFolder, { recursive: true, force: true });
}

if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(
    check
      ? 'The public surface changed. Run `pnpm build && pnpm api:report` and commit api-reports/ with the change.'
      : 'Some reports could not be written.',
  );
  process.exit(1);
}
