import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { KeyInput } from '@jwe-transport/codec';
import type {
  ConformanceAdapter,
  RunningServer,
  ServerSetup,
} from '@jwe-transport/test-support/server-conformance';
import { BINARIES, commandLine, type RuntimeName, root, runtimeEnv } from '../support/runtimes.js';

const SCRIPT = 'hono/scripts/conformance-app.mjs';

type Lookup = { resolve: number; kid: string | null; header: Record<string, unknown> };

/** A key as a line the child can read: shared keys as text, raw keys as base64. */
function encodeKey(id: number, key: KeyInput | undefined): string {
  const answer =
    key === undefined
      ? { id }
      : typeof key === 'string'
        ? { id, key }
        : { id, bytes: Buffer.from(key as Uint8Array).toString('base64') };
  return `${JSON.stringify(answer)}\n`;
}

/** Answers the child's key lookups with the setup's resolver, which cannot cross as JSON. */
async function answerLookup(child: ChildProcessWithoutNullStreams, setup: ServerSetup, lookup: Lookup) {
  const resolver = setup.keys as Exclude<ServerSetup['keys'], Readonly<Record<string, string>>>;
  let key: KeyInput | undefined;
  try {
    key = await resolver(lookup.kid ?? undefined, lookup.header as never);
  } catch {
    key = undefined;
  }
  if (!child.stdin.destroyed) child.stdin.write(encodeKey(lookup.resolve, key));
}

function stopper(child: ChildProcessWithoutNullStreams, exited: Promise<void>) {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
}

/** Starts the conformance app under `runtime` and resolves once it prints its port. */
function startChild(runtime: RuntimeName, setup: ServerSetup): Promise<RunningServer> {
  const wire = { ...setup, keys: typeof setup.keys === 'function' ? 'parent' : setup.keys };
  const args = commandLine(runtime, SCRIPT, {
    loopback: true,
    writable: [setup.upload.dest],
    args: [JSON.stringify(wire)],
  });
  const child = spawn(BINARIES[runtime], args, { cwd: root, env: runtimeEnv(), stdio: 'pipe' });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`${runtime} ${SCRIPT} exited (${code ?? signal}) before listening:\n${stderr}`)),
    );
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { port?: number } & Partial<Lookup>;
      if (message.port !== undefined)
        resolve({ url: `http://127.0.0.1:${message.port}`, close: stopper(child, exited) });
      else if (message.resolve !== undefined) void answerLookup(child, setup, message as Lookup);
    });
  });
}

/** The Node Hono adapter's app, served by Deno (`Deno.serve`) or Bun (`Bun.serve`) in a child process. */
export function runtimeHonoAdapter(runtime: RuntimeName): ConformanceAdapter {
  const server = runtime === 'deno' ? 'Deno.serve' : 'Bun.serve';
  return { name: `Hono 4 on ${server} (${runtime})`, start: (setup) => startChild(runtime, setup) };
}
