import type { HeaderSource, KeyInput, KeyResolver } from '@jwe-transport/codec';
import * as codec from '@jwe-transport/codec';

/*
 * The codec's streaming functions, looked up at run time: they arrived in the codec after the
 * one-shot API, and a CLI built against an older codec must still run (it then reads large
 * inputs whole, up to a limit). The signatures mirror `@jwe-transport/codec`'s.
 */

type ByteSource = AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;

export interface StreamDecryptResult {
  bytes: number;
  kid: string | undefined;
  headerSource: HeaderSource;
}

export interface StreamingCodec {
  encryptFileStream(source: ByteSource, key: KeyInput, options: { kid?: string }): ReadableStream<Uint8Array>;
  encryptStream(source: ByteSource, key: KeyInput, options: { kid?: string }): ReadableStream<Uint8Array>;
  decryptFileStream(
    source: ByteSource,
    key: KeyInput | KeyResolver,
    options: { to: string | WritableStream<Uint8Array> },
  ): Promise<StreamDecryptResult>;
  decryptStream(
    source: ByteSource,
    key: KeyInput | KeyResolver,
    options: { to: string | WritableStream<Uint8Array> },
  ): Promise<StreamDecryptResult>;
}

const NAMES = ['encryptFileStream', 'encryptStream', 'decryptFileStream', 'decryptStream'] as const;

export function streamingCodec(): StreamingCodec | undefined {
  const exports = codec as unknown as Record<string, unknown>;
  return NAMES.every((name) => typeof exports[name] === 'function')
    ? (exports as unknown as StreamingCodec)
    : undefined;
}
