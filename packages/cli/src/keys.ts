import { readFile } from 'node:fs/promises';
import { type KeySet, parseKeyText } from '@jwe-transport/inspect-core';
import { CliError } from './cli-error.js';

// Parsing key texts (kid=key lists, doubled keys) is the engine's; finding them (flags, files,
// the environment) is the CLI's.
export type { KeyEntry, KeySet } from '@jwe-transport/inspect-core';

export interface KeyOptions {
  key?: string | undefined;
  keyFile?: string | undefined;
  keyEnv?: string | undefined;
}

export const DEFAULT_KEY_ENV = 'JWE_KEY';

export const KEY_FLAG_WARNING =
  'warning: --key leaves the key in your shell history and in the process list; prefer --key-file or $JWE_KEY.';

/**
 * Finds the keys from, in order of precedence, `--key`, `--key-file`, or the environment variable
 * (`--key-env NAME`, default `JWE_KEY`). Returns undefined when none is given.
 */
export async function loadKeys(
  options: KeyOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<KeySet | undefined> {
  const given = [options.key, options.keyFile].filter((value) => value !== undefined).length;
  if (given > 1) {
    throw new CliError(
      'ERR_USAGE',
      'Give the key one way only: --key or --key-file (or an environment variable).',
    );
  }
  if (options.key !== undefined) return parseKeyText(options.key, '--key');
  if (options.keyFile !== undefined) {
    let text: string;
    try {
      text = await readFile(options.keyFile, 'utf8');
    } catch (error) {
      throw new CliError(
        'ERR_KEY_MISSING',
        `Cannot read the key file ${JSON.stringify(options.keyFile)} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      );
    }
    return parseKeyText(text, `--key-file ${options.keyFile}`);
  }
  const name = options.keyEnv ?? DEFAULT_KEY_ENV;
  const value = env[name];
  if (value === undefined || value === '') {
    if (options.keyEnv !== undefined) {
      throw new CliError(
        'ERR_KEY_MISSING',
        `The environment variable ${name} (from --key-env) is not set or empty.`,
      );
    }
    return undefined;
  }
  return parseKeyText(value, `$${name}`);
}

export function missingKeyError(): CliError {
  return new CliError(
    'ERR_KEY_MISSING',
    `No key given. Put the 16-character shared key in a file and pass --key-file PATH, or export ${DEFAULT_KEY_ENV}=<key> ` +
      '(or name another variable with --key-env NAME). For several keys write kid=key lines.',
  );
}
