import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CliError } from '../cli-error.js';
import { outputError } from './write-file.js';

export interface AtomicFile {
  stream: WriteStream;
  /** Closes the file and moves it to its final name. */
  commit(): Promise<void>;
  /** Closes and removes the temporary file, so no half-written output is left under any name. */
  abort(): Promise<void>;
}

/**
 * A file written under a hidden temporary name beside its destination and renamed into place when
 * complete, so a failure part-way (a read error, a full disk) never leaves a truncated output.
 */
export async function openAtomicFile(path: string, force: boolean): Promise<AtomicFile> {
  if (!force) {
    const exists = await stat(path).then(
      () => true,
      () => false,
    );
    if (exists)
      throw new CliError(
        'ERR_OUTPUT',
        `${JSON.stringify(path)} already exists; pass --force to overwrite it.`,
      );
  }
  const temporary = join(dirname(path), `.${basename(path)}.${randomUUID()}.partial`);
  const stream = createWriteStream(temporary, { flags: 'wx' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve()).once('error', (error) => reject(outputError(path, error)));
  });
  const close = () =>
    new Promise<void>((resolve, reject) => {
      if (stream.closed) resolve();
      else stream.end((error?: Error | null) => (error ? reject(outputError(path, error)) : resolve()));
    });
  return {
    stream,
    async commit() {
      await close();
      try {
        await rename(temporary, path);
      } catch (error) {
        throw outputError(path, error);
      }
    },
    async abort() {
      stream.destroy();
      await unlink(temporary).catch(() => {});
    },
  };
}
