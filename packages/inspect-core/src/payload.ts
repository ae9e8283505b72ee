import { fromBase64 } from './bytes.js';
import { sha256Hex } from './digest.js';
import { isPrintableText, type MediaInfo, sniffMediaType } from './media-type.js';
import { isObject } from './object.js';

/** A decrypted plaintext, classified for display: the service sends JSON bodies and `{"file": base64}` uploads. */
export type Payload =
  | { type: 'json'; value: unknown; bytes: Uint8Array }
  | { type: 'file'; bytes: Uint8Array; media: MediaInfo; sha256: string; plaintext: Uint8Array }
  | { type: 'text'; text: string; bytes: Uint8Array }
  | { type: 'binary'; bytes: Uint8Array; media: MediaInfo; sha256: string }
  | { type: 'empty'; bytes: Uint8Array };

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function fileBytes(value: unknown): Uint8Array | undefined {
  if (!isObject(value)) return undefined;
  const names = Object.keys(value);
  if (names.length !== 1 || typeof value.file !== 'string' || !STANDARD_BASE64.test(value.file))
    return undefined;
  return fromBase64(value.file);
}

export async function classifyPlaintext(plaintext: Uint8Array): Promise<Payload> {
  if (plaintext.length === 0) return { type: 'empty', bytes: plaintext };
  let text: string | undefined;
  try {
    text = utf8.decode(plaintext);
  } catch {
    text = undefined;
  }
  if (text !== undefined) {
    let value: unknown;
    let isJson = false;
    try {
      value = JSON.parse(text);
      isJson = true;
    } catch {
      isJson = false;
    }
    if (isJson) {
      const file = fileBytes(value);
      if (file)
        return {
          type: 'file',
          bytes: file,
          media: sniffMediaType(file),
          sha256: await sha256Hex(file),
          plaintext,
        };
      return { type: 'json', value, bytes: plaintext };
    }
    if (isPrintableText(plaintext)) return { type: 'text', text, bytes: plaintext };
  }
  return {
    type: 'binary',
    bytes: plaintext,
    media: sniffMediaType(plaintext, false),
    sha256: await sha256Hex(plaintext),
  };
}

/** What `--json` prints about a payload. File and binary contents are described, not dumped. */
export function describePayload(payload: Payload, writtenTo?: string): Record<string, unknown> {
  const written = writtenTo === undefined ? {} : { writtenTo };
  switch (payload.type) {
    case 'json':
      return { type: 'json', value: payload.value, ...written };
    case 'text':
      return { type: 'text', value: payload.text, ...written };
    case 'empty':
      return { type: 'empty', size: 0, ...written };
    case 'file':
    case 'binary':
      return {
        type: payload.type,
        size: payload.bytes.length,
        sha256: payload.sha256,
        mediaType: payload.media.mediaType,
        description: payload.media.description,
        ...written,
      };
  }
}
