import { Buffer } from 'node:buffer';
import { JweError } from '../errors.js';
import type { KeyInput, KeyResolver } from '../key.js';
import { Base64StreamDecoder } from './base64-stream.js';
import { CiphertextConsumer } from './ciphertext-consumer.js';
import {
  headerSource,
  type Members,
  planStreaming,
  recordMember,
  resolveEnvelope,
  samePlan,
} from './envelope-header.js';
import { EnvelopeScanner } from './envelope-scanner.js';
import { piecesOf } from './pieces.js';
import { openSink, type Sink } from './sink.js';
import { checkMaxSize, SizeLimit } from './size-limit.js';
import { chunksOf } from './sources.js';
import { SpillFile } from './spill-file.js';
import type { ByteSource, DecryptStreamOptions, DecryptStreamResult } from './types.js';

function lateMember(): JweError {
  return new JweError(
    'ERR_JWE_UNSUPPORTED',
    'This envelope has an "aad" member, or a header that names another key, after "ciphertext": ' +
      'streaming decryption needs those before the ciphertext. Reorder the members or use decrypt().',
  );
}

/**
 * Reads an envelope from `source` and delivers its plaintext (raw) or file bytes (file) to the
 * sink, which is committed only after the tag has verified and aborted on any failure.
 */
export async function decryptEnvelopeStream(
  source: ByteSource,
  key: KeyInput | KeyResolver,
  options: DecryptStreamOptions,
  mode: 'raw' | 'file',
  what: string,
): Promise<DecryptStreamResult> {
  if (!options || options.to === undefined) throw new TypeError(`${what}: the "to" option is required.`);
  checkMaxSize(options.maxSize, what);
  const policy = options.missingProtected ?? 'infer';
  const limit = new SizeLimit(options.maxSize, mode === 'raw' ? 'plaintext' : 'file');
  const sink: Sink = await openSink(options.to);
  let spill: SpillFile | undefined;
  let consumer: CiphertextConsumer | undefined;
  try {
    const scanner = new EnvelopeScanner();
    const members: Members = {};
    // Its output is consumed at once (the decryptor copies what it reads), so one buffer serves.
    const base64 = new Base64StreamDecoder('base64url', 'The "ciphertext" member', true);
    // Decoded ciphertext goes straight to the decryptor, or to the spill file until it can.
    const take = async (ciphertext: Uint8Array) => {
      if (ciphertext.length === 0) return;
      limit.addCiphertext(ciphertext.length);
      if (consumer) await consumer.update(ciphertext);
      else await spill!.write(Buffer.from(ciphertext)); // the spill file keeps what it is given
    };
    for await (const chunk of chunksOf(source, `${what}: the envelope source`)) {
      limit.addEnvelope(chunk.length);
      for (const event of scanner.feed(chunk)) {
        if (event.kind === 'member') recordMember(members, event.name, event.value);
        else if (event.kind === 'ciphertext') {
          for (const piece of piecesOf(event.text)) await take(base64.push(piece));
        } else if (event.kind === 'ciphertext-end') {
          await take(base64.end());
        } else if (event.kind === 'ciphertext-start') {
          const plan = await planStreaming(members, key);
          if (plan) consumer = new CiphertextConsumer(plan, mode, sink, limit);
          else spill = await SpillFile.create(options.spillDir);
        }
      }
    }
    scanner.finish();

    const resolved = await resolveEnvelope(members, key, policy);
    if (consumer) {
      if (!samePlan(consumer.plan, resolved)) throw lateMember();
    } else {
      consumer = new CiphertextConsumer(resolved, mode, sink, limit);
      for await (const chunk of spill!.chunks()) await consumer.update(chunk);
    }
    const aadIndex = await consumer.finish(resolved.tag);
    await sink.commit();
    return {
      bytes: consumer.bytes,
      header: resolved.header,
      kid: resolved.kid,
      headerSource: headerSource(resolved, aadIndex),
      spilled: spill !== undefined,
    };
  } catch (error) {
    await sink.abort(error);
    throw error;
  } finally {
    await spill?.dispose();
  }
}
