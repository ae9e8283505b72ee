#!/usr/bin/env node
// `pnpm bench`: runs every suite in bench/suites in its own child process (so each one's peak
// memory is its own and a crash in one does not hide the others) and prints one table per suite.
// Ratios matter, not absolute numbers: these machines are shared and noisy.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const suites = (await readdir(join(here, 'suites')))
  .filter((name) => /^\d+-.*\.mjs$/.test(name))
  .filter((name) => only.length === 0 || only.some((o) => name.includes(o)))
  .sort();

function runSuite(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', join(here, 'suites', file)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, BENCH_REPORT: '1' },
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve({ code, ...JSON.parse(line) });
      } catch {
        resolve({ code, title: file, rows: [], error: `no report (exit ${code})` });
      }
    });
  });
}

const columns = ['case', 'ours', 'reference', 'ratio', 'target', 'notes'];
let failed = 0;
console.log(`# pnpm bench — Node ${process.version}, ${new Date().toISOString()}\n`);
for (const file of suites) {
  const report = await runSuite(file);
  console.log(`## ${report.title}\n`);
  if (report.error) {
    failed++;
    console.log(`(suite failed: ${report.error})\n`);
    continue;
  }
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`| ${columns.map(() => '---').join(' | ')} |`);
  for (const row of report.rows) console.log(`| ${columns.map((c) => row[c] ?? '').join(' | ')} |`);
  console.log('');
}
process.exitCode = failed ? 1 : 0;
