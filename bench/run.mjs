#!/usr/bin/env node
// `pnpm bench [part-of-suite-name ...]`: runs the suites in bench/suites, each in its own child
// process (so each one's peak memory is its own and a crash in one does not hide the others),
// prints one table per suite and writes them to bench/RESULTS.md. A full run replaces the file;
// a run of some suites replaces only their sections, each of which carries its own date.
// Ratios matter, not absolute numbers: CPU time is the steadier measure on a shared machine.
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const resultsPath = join(here, 'RESULTS.md');
const only = process.argv.slice(2);
const all = (await readdir(join(here, 'suites'))).filter((name) => /^\d+-.*\.mjs$/.test(name)).sort();
const suites = all.filter((name) => only.length === 0 || only.some((o) => name.includes(o)));

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

const columns = [
  ['case', 'case'],
  ['ours', 'ours'],
  ['reference', 'reference'],
  ['ratio', 'wall ratio'],
  ['cpu_ratio', 'CPU ratio'],
  ['target', 'target'],
  ['met', 'met'],
  ['notes', 'notes'],
];
const cell = (value) => String(value ?? '').replaceAll('|', '\\|');
const metCell = (met) => (met === true ? 'yes' : met === false ? '**no**' : '');

/**
 * A row's `met` when its suite left it out but its target is written as comparisons on its own
 * columns (`ratio >= 0.8, cpu_ratio <= 1.2`, or a bare `>= 0.8` for the wall ratio): judged here
 * so every suite's table says whether it met its target. Anything else stays unjudged.
 */
function judged(row) {
  if (row.met !== undefined || !row.target) return row.met;
  const clauses = String(row.target)
    .split(',')
    .map((clause) => clause.trim());
  let met = true;
  for (const clause of clauses) {
    const match = /^(ratio|cpu_ratio)?\s*(>=|<=)\s*([\d.]+)$/.exec(clause);
    const value = match ? Number.parseFloat(String(row[match[1] ?? 'ratio'] ?? '')) : Number.NaN;
    if (!match || Number.isNaN(value)) return undefined;
    const limit = Number(match[3]);
    met &&= match[2] === '>=' ? value >= limit : value <= limit;
  }
  return met;
}

function section(file, report, when) {
  const lines = [`<!-- suite: ${file} -->`, `## ${report.title}`, '', `Run ${when}.`, ''];
  if (report.error) return [...lines, `(suite failed: ${report.error})`, ''].join('\n');
  lines.push(`| ${columns.map(([, head]) => head).join(' | ')} |`);
  lines.push(`| ${columns.map(() => '---').join(' | ')} |`);
  for (const row of report.rows) {
    lines.push(
      `| ${columns.map(([key]) => (key === 'met' ? metCell(judged(row)) : cell(row[key]))).join(' | ')} |`,
    );
  }
  return [...lines, ''].join('\n');
}

/** The sections of the previous RESULTS.md, by suite file, for suites this run does not repeat. */
async function previousSections() {
  const text = await readFile(resultsPath, 'utf8').catch(() => '');
  const sections = new Map();
  for (const part of text.split(/(?=^<!-- suite: )/m).slice(1)) {
    const file = /^<!-- suite: (\S+) -->/.exec(part)?.[1];
    if (file) sections.set(file, part.trimEnd());
  }
  return sections;
}

const [cpu] = cpus();
const machine = [
  `- CPU: ${cpu?.model ?? 'unknown'}, ${availableParallelism()} cores available to Node`,
  `- Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
  `- Node ${process.version} (${process.platform} ${process.arch})`,
  `- Load average when the latest run started: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')} (the machine may be shared; CPU-time ratios are the steadier measure)`,
];
const header = [
  '# Benchmark results',
  '',
  'Written by `pnpm bench` (bench/run.mjs); do not edit by hand. Each row compares ours with a',
  'reference measured in the same run. "wall ratio" compares elapsed time, "CPU ratio" compares the',
  'CPU time of all threads of the process (`process.cpuUsage()`, or the children times of a',
  'pipeline); both read as how many times better ours is unless the target says otherwise.',
  '',
  ...machine,
  '',
].join('\n');

const previous = only.length === 0 ? new Map() : await previousSections();
const fresh = new Map();
let failed = 0;
console.log(`${header}`);
for (const file of suites) {
  const when = `${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} on Node ${process.version}`;
  const report = await runSuite(file);
  if (report.error) failed++;
  const text = section(file, report, when);
  fresh.set(file, text);
  console.log(text);
}
const body = all
  .map((file) => fresh.get(file) ?? previous.get(file))
  .filter((text) => text !== undefined)
  .join('\n\n');
await writeFile(resultsPath, `${header}\n${body.trimEnd()}\n`);
console.log(`wrote ${resultsPath}`);
process.exitCode = failed ? 1 : 0;
