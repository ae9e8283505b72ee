import { writeFile } from 'node:fs/promises';
import { CliError } from '../cli-error.js';

export function outputError(path: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  if (code === 'EEXIST') {
    return new CliError(
      'ERR_OUTPUT',
      `${JSON.stringify(path)} already exists; pass --force to overwrite it.`,
    );
  }
  return new CliError('ERR_OUTPUT', `Cannot write ${JSON.stringify(path)} (${code}).`);
}

/** Writes an output file, refusing to replace an existing one unless forced. */
export async function writeOutputFile(
  path: string,
  bytes: Uint8Array | string,
  force: boolean,
): Promise<void> {
  try {
    await writeFile(path, bytes, { flag: force ? 'w' : 'wx' });
  } catch (error) {
    throw outputError(path, error);
  }
}
