#!/usr/bin/env node
// The interop tests run against two independent JOSE implementations from Debian:
// python3-jwcrypto (under /usr/bin/python3) and the `jose` C tool; the reference service's test of
// the service's Python automation example runs it with python3-requests. `pnpm test` calls this first:
// when they are missing it installs them where it can (root with apt-get, as on these machines
// and in CI) and otherwise says exactly what to install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const ok = (command, args) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
const present = () =>
  ok('/usr/bin/python3', ['-I', '-c', 'import jwcrypto, requests']) &&
  existsSync('/usr/bin/jose') &&
  ok('/usr/bin/jose', ['alg']);

if (present()) process.exit(0);

const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
if (!canInstall) {
  console.error(
    'The interoperability tests need python3-jwcrypto, python3-requests and the jose C tool (Debian/Ubuntu packages).\n' +
      'Install them with: sudo apt-get install python3-jwcrypto python3-requests jose',
  );
  process.exit(1);
}
console.log(
  'Installing the peers the interop tests use: apt-get install python3-jwcrypto python3-requests jose',
);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', 'python3-jwcrypto', 'python3-requests', 'jose'],
]) {
  if (spawnSync('apt-get', args, { stdio: 'inherit', env }).status !== 0) process.exit(1);
}
process.exit(present() ? 0 : 1);
