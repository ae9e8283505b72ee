import {
  type DecryptedEnvelope,
  decryptWithKeys as engineDecryptWithKeys,
} from '@jwe-transport/inspect-core';
import { decryptionFailedError as engineDecryptionFailedError } from '@jwe-transport/inspect-core/internal';
import { type CliError, toCliError } from './cli-error.js';
import type { KeySet } from './keys.js';

export type { DecryptedEnvelope } from '@jwe-transport/inspect-core';

export const INSPECT_HINT =
  'Run `jwe-transport inspect` on the same input with the same key to see which causes can be ruled out.';

/** The engine's failure, with the CLI's next step appended and the CLI's exit code. */
export function decryptionFailedError(keyCount: number, envelopeText?: string): CliError {
  return toCliError(engineDecryptionFailedError(keyCount, envelopeText, INSPECT_HINT));
}

/** The engine's decryptWithKeys; a failure message ends with the CLI's pointer to `inspect`. */
export function decryptWithKeys(envelopeText: string, keys: KeySet): Promise<DecryptedEnvelope> {
  return engineDecryptWithKeys(envelopeText, keys, { failureHint: INSPECT_HINT });
}
