import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built executable; tests run it exactly as users do, as a separate process. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

export interface CliOptions {
  input?: string | Uint8Array;
  env?: Record<string, string>;
  cwd?: string;
}

/** Runs `node dist/bin.js ...args` with a clean environment (no JWE_KEY unless given). */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.stdin.on('error', () => {});
    child.on('close', (code) => {
      const stdoutBytes = Buffer.concat(out);
      resolve({
        code,
        stdout: stdoutBytes.toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        stdoutBytes,
      });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A private temporary directory, removed by the returned cleanup. */
export async function tempDir(): Promise<{
  dir: string;
  path(name: string): string;
  cleanup(): Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'jwe-cli-test-'));
  return { dir, path: (name) => join(dir, name), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export const KEY = 'k9PzR2vQ7wXy4LmN';
export const OTHER_KEY = 'Zz1Yy2Xx3Ww4Vv5U';
export const utf8 = (text: string) => new TextEncoder().encode(text);
