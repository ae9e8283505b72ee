import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { type ReferenceService, startReferenceService } from '@jwe-transport/testing/reference-service';
import { BIN } from '../helpers/run-cli.js';

export const KEY = 'k9PzR2vQ7wXy4LmN';
export const KID = 'proxy-kid';
export const CLIENT_ID = 'proxy-test-client';
export const CLIENT_SECRET = 'proxy-test-secret-1';
export const TOKEN = 'proxy-static-token-1';

/** The reference service on 127.0.0.1:0, recording the lines it logs (method, path, status, jwe or plain, kid). */
export async function referenceService(uploadLimit?: string): Promise<ReferenceService & { log: string[] }> {
  const log: string[] = [];
  const service = await startReferenceService({
    keys: { [KID]: KEY },
    clients: { [CLIENT_ID]: CLIENT_SECRET },
    tokens: [TOKEN],
    processingMs: 20,
    ...(uploadLimit === undefined ? {} : { uploadLimit }),
    log: (line) => log.push(line),
  });
  return Object.assign(service, { log });
}

export interface ProxyProcess {
  child: ChildProcessWithoutNullStreams;
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  stdout(): string;
  stderr(): string;
  /** The exchange lines printed so far (stdout, after the URL). */
  lines(): string[];
  /** Resolves once `count` exchange lines have been printed. */
  waitForLines(count: number): Promise<string[]>;
  /** Resolves with the exchange lines once one of them matches `pattern`. */
  waitForLine(pattern: RegExp): Promise<string[]>;
  /** Resolves with the exit code once the process has ended by itself. */
  exited(): Promise<number | null>;
  /** Sends a signal and resolves with the exit code once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const EXCHANGE_LINE = /^\d\d:\d\d:\d\d {2}/;

/** Runs `jwe-transport proxy ...args` (the built binary) with the key in $JWE_KEY, and waits for its URL. */
export async function startProxyProcess(
  args: readonly string[],
  env: Record<string, string> = {},
  entry = BIN,
): Promise<ProxyProcess> {
  const child = spawn(process.execPath, [entry, 'proxy', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', JWE_KEY: `${KID}=${KEY}`, ...env },
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const waiter of waiters) waiter();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /^(http:\/\/127\.0\.0\.1:\d+)\/$/m.exec(out);
      if (match) {
        waiters.delete(check);
        resolve(match[1]!);
      }
    };
    waiters.add(check);
    void exited.then((code) => reject(new Error(`proxy exited early (${code}): ${err}`)));
  });
  const lines = () => out.split('\n').filter((line) => EXCHANGE_LINE.test(line));
  return {
    child,
    url,
    port: Number(new URL(url).port),
    stdout: () => out,
    stderr: () => err,
    lines,
    waitForLines: (count) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (lines().length >= count) {
            waiters.delete(check);
            resolve(lines());
          }
        };
        waiters.add(check);
        check();
        void exited.then(() =>
          reject(new Error(`proxy exited with ${lines().length} of ${count} lines: ${err}`)),
        );
      }),
    waitForLine: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (lines().some((line) => pattern.test(line))) {
            waiters.delete(check);
            resolve(lines());
          }
        };
        waiters.add(check);
        check();
        void exited.then(() => reject(new Error(`proxy exited before a line matched ${pattern}: ${err}`)));
      }),
    exited: () => exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface ToolResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command-line tool as it is, collecting its output. */
export function runTool(
  command: string,
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
