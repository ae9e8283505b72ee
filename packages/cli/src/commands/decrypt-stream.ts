import { open, stat } from 'node:fs/promises';
import {
  decryptFileStream,
  decryptStream,
  ENVELOPE_MEMBERS,
  isJweError,
  type KeyInput,
  type KeyResolver,
} from '@jwe-transport/codec';
import { sniffMediaType } from '@jwe-transport/inspect-core/internal';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../context.js';
import { decryptionFailedError } from '../decrypt-with-keys.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type OpenedInput, remainingBytes } from '../input/read-input.js';
import { writeJson, writeText } from '../io.js';
import type { KeySet } from '../keys.js';
import { digestSink } from '../output/digest-sink.js';
import { formatSize, headerSourceNote } from '../output/format.js';

const MEMBER_NAMES = new Set(ENVELOPE_MEMBERS);

/** A large input streams when it is a flattened JSON envelope (its first member says so) */
export function canStreamDecrypt(head: Uint8Array): boolean {
  const start = Buffer.from(head.subarray(0, 256)).toString('latin1');
  const first = /^(?:\uFEFF|\u00EF\u00BB\u00BF)?\s*\{\s*"([^"\\]{1,32})"/.exec(start)?.[1];
  return first !== undefined && MEMBER_NAMES.has(first);
}

/** One key, or a resolver by kid: a stream cannot be re-read to try each key in turn. */
export function streamingKey(keys: KeySet): KeyInput | KeyResolver {
  if (keys.entries.length === 1) return keys.entries[0]!.key;
  return (kid) => keys.entries.find((entry) => entry.kid === kid)?.key;
}

async function assertWritable(path: string, force: boolean): Promise<void> {
  if (force) return;
  const exists = await stat(path).then(
    () => true,
    () => false,
  );
  if (exists)
    throw new CliError('ERR_OUTPUT', `${JSON.stringify(path)} already exists; pass --force to overwrite it.`);
}

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Decrypts a large envelope without holding it: file bytes (or with --raw the plaintext) go to
 * --out, committed only after the tag verifies. Without --out only a digest is kept, so no
 * unauthenticated byte ever reaches the terminal.
 */
export async function streamDecrypt(
  ctx: CommandContext,
  input: OpenedInput,
  keys: KeySet,
): Promise<ExitCode> {
  const { out, raw, force } = ctx.values;
  if (raw && out === undefined) {
    throw new CliError(
      'ERR_USAGE',
      `${input.name} is large, so it streams; streamed plaintext is written only to --out PATH, which appears once the tag has verified.`,
    );
  }
  if (out !== undefined) await assertWritable(out, force === true);
  const digest = out === undefined ? digestSink() : undefined;
  const decrypt = raw ? decryptStream : decryptFileStream;
  let result: Awaited<ReturnType<typeof decrypt>>;
  try {
    result = await decrypt(remainingBytes(input), streamingKey(keys), { to: out ?? digest!.stream });
  } catch (error) {
    if (isJweError(error) && error.code === 'ERR_JWE_DECRYPTION_FAILED') throw decryptionFailedError(1);
    if (isJweError(error) && error.code === 'ERR_JWE_INVALID' && !raw && /file payload/.test(error.message)) {
      throw new CliError(error.code, `${error.message} For other content pass --raw --out PATH.`);
    }
    throw error;
  } finally {
    input.close();
  }
  const summary = digest?.result();
  const head = summary?.head ?? (await readHead(out!));
  const media = sniffMediaType(head);
  const payload = {
    type: raw ? 'raw' : 'file',
    size: result.bytes,
    ...(summary ? { sha256: summary.sha256 } : {}),
    mediaType: media.mediaType,
    description: media.description,
    ...(out !== undefined ? { writtenTo: out } : {}),
  };
  if (ctx.json) {
    await writeJson(ctx.io.stdout, {
      ok: true,
      input: 'flattened JSON envelope',
      streamed: true,
      kid: result.kid ?? null,
      headerSource: result.headerSource,
      payload,
    });
    return EXIT.OK;
  }
  const note = headerSourceNote(result.headerSource);
  if (note) await ctx.note(`note: ${note}`);
  await ctx.note(
    `decrypted flattened JSON envelope (streamed), ${result.kid === undefined ? 'no kid' : `kid "${result.kid}"`}`,
  );
  const what = raw ? 'plaintext' : 'file payload';
  const where =
    out !== undefined
      ? `, written to ${out}`
      : `, sha256 ${summary!.sha256}\n  (pass --out PATH to save the bytes)`;
  await writeText(
    ctx.io.stdout,
    `${ctx.style.bold(what)}: ${media.description} (${media.mediaType}), ${formatSize(result.bytes)}${where}\n`,
  );
  return EXIT.OK;
}
