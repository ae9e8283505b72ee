#!/usr/bin/env node
// Fails when a package under packages/ would publish without the metadata an npm page needs:
// repository, homepage, bugs, license, engines, description, keywords, sideEffects, a LICENSE and a
// README in the directory and in `files`, and README links that still resolve once the README is on npm.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO_URL = 'git+https://github.com/jwe-transport/jwe-transport.git';
const TREE = 'https://github.com/jwe-transport/jwe-transport/tree/main';
const ISSUES = 'https://github.com/jwe-transport/jwe-transport/issues';

function problemsOf(dir, name) {
  const problems = [];
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const want = (ok, what) => {
    if (!ok) problems.push(what);
  };
  want(typeof pkg.description === 'string' && pkg.description.length > 0, 'description is missing');
  want(Array.isArray(pkg.keywords) && pkg.keywords.length > 0, 'keywords are missing');
  want(pkg.license === 'MIT', `license is ${JSON.stringify(pkg.license)}, expected "MIT"`);
  want(typeof pkg.engines?.node === 'string', 'engines.node is missing');
  const repo = pkg.repository ?? {};
  want(
    repo.type === 'git' && repo.url === REPO_URL && repo.directory === `packages/${name}`,
    `repository must be {type: "git", url: "${REPO_URL}", directory: "packages/${name}"}`,
  );
  want(
    pkg.homepage === `${TREE}/packages/${name}#readme`,
    `homepage must be ${TREE}/packages/${name}#readme`,
  );
  want(pkg.bugs?.url === ISSUES, `bugs.url must be ${ISSUES}`);
  const files = Array.isArray(pkg.files) ? pkg.files : [];
  // Bundlers drop unused imports of side-effect-free files: a package says which of its files run
  // code on import (an array of them), or `false` when none does. Leaving it out means "all".
  want(
    pkg.sideEffects === false ||
      (Array.isArray(pkg.sideEffects) &&
        pkg.sideEffects.every(
          (path) =>
            typeof path === 'string' &&
            files.some((entry) => path.startsWith(`./${entry.replace(/\/$/, '')}/`)),
        )),
    'sideEffects must be false or list the shipped files that run code on import',
  );
  for (const required of ['LICENSE', 'README.md']) {
    want(existsSync(join(dir, required)), `${required} is missing from the package directory`);
    want(files.includes(required), `"files" does not list ${required}`);
  }
  if (existsSync(join(dir, 'README.md'))) {
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    for (const [, target] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target)) continue;
      const path = target.split('#')[0];
      if (path.startsWith('..') || path.startsWith('/')) {
        problems.push(`README links outside the package (${target}); use an absolute GitHub URL`);
      } else if (!files.some((entry) => path === entry || path.startsWith(`${entry.replace(/\/$/, '')}/`))) {
        problems.push(`README links to ${target}, which "files" does not ship`);
      }
    }
  }
  return problems;
}

let failed = 0;
for (const name of readdirSync('packages').sort()) {
  const dir = join('packages', name);
  if (!existsSync(join(dir, 'package.json'))) continue;
  const problems = problemsOf(dir, name);
  if (problems.length === 0) {
    console.log(`ok   packages/${name}`);
    continue;
  }
  failed += 1;
  console.error(`FAIL packages/${name}`);
  for (const problem of problems) console.error(`     - ${problem}`);
}
if (failed > 0) {
  console.error(`\n${failed} package(s) would publish with missing or broken metadata.`);
  process.exit(1);
}
