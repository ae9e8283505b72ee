import type { Readable, Writable } from 'node:stream';

/** Where a run reads and writes. `bin.ts` passes the process's streams; embedders and tests pass their own. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
}

/** Writes text and waits until the stream has taken it, so large outputs respect back-pressure. */
export function writeText(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

export function writeBytes(stream: Writable, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(bytes, (error) => (error ? reject(error) : resolve()));
  });
}

export function writeJson(stream: Writable, value: unknown): Promise<void> {
  return writeText(stream, `${JSON.stringify(value, null, 2)}\n`);
}
