import type { Buffer } from 'node:buffer';
import { invalid } from '../errors.js';
import { FILE_PREFIX_TEXT, FILE_SUFFIX_TEXT } from '../file-payload.js';
import { Base64StreamDecoder, Base64StreamEncoder } from './base64-stream.js';
import { isJsonWhitespace, JsonStringStream } from './json-string-stream.js';

/*
 * The file upload plaintext `{"file":"<standard base64>"}` (docs/wire-format.md#file-uploads),
 * built and read one chunk at a time. We write it exactly as the one-shot `encryptFile` does (no spaces); we read any JSON
 * spelling of a one-member object, as the one-shot `decryptFile` does.
 */

const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
export const FILE_PAYLOAD_PREFIX = latin1(FILE_PREFIX_TEXT);
const FILE_PAYLOAD_SUFFIX = latin1(FILE_SUFFIX_TEXT);

/**
 * Turns file chunks into payload chunks; the caller sends `FILE_PAYLOAD_PREFIX` first. Each chunk
 * `push` returns is valid until the next `push` (it goes straight into the cipher).
 */
export class FilePayloadEncoder {
  private readonly base64 = new Base64StreamEncoder('base64', true);

  push(chunk: Uint8Array): Buffer {
    return this.base64.push(chunk);
  }

  /** The last base64 characters and the closing `"}`. */
  end(): Uint8Array[] {
    return [this.base64.end(), FILE_PAYLOAD_SUFFIX];
  }
}

enum Step {
  BeforeObject,
  BeforeName,
  Name,
  BeforeColon,
  BeforeValue,
  Value,
  AfterValue,
  AfterObject,
}

const NAME_LIMIT = 64;

function notFilePayload(): Error {
  return invalid('The decrypted payload is not a file payload: expected exactly {"file": "<base64>"}.');
}

/** Reads payload chunks and returns the file bytes they complete. */
export class FilePayloadDecoder {
  private step = Step.BeforeObject;
  private name: number[] = [];
  private nameEscaped = false;
  private readonly value = new JsonStringStream('The "file" member');
  private readonly base64 = new Base64StreamDecoder('base64', 'The "file" member');

  push(payload: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    let at = 0;
    while (at < payload.length) {
      const byte = payload[at]!;
      switch (this.step) {
        case Step.BeforeObject:
          this.expect(byte, 0x7b, Step.BeforeName);
          break;
        case Step.BeforeName:
          this.expect(byte, 0x22, Step.Name);
          break;
        case Step.Name:
          this.readName(byte);
          break;
        case Step.BeforeColon:
          this.expect(byte, 0x3a, Step.BeforeValue);
          break;
        case Step.BeforeValue:
          this.expect(byte, 0x22, Step.Value);
          break;
        case Step.Value: {
          const end = this.value.read(payload, at, (text) => {
            const bytes = this.base64.push(text);
            if (bytes.length > 0) out.push(bytes);
          });
          if (end === -1) return out;
          out.push(this.base64.end());
          this.step = Step.AfterValue;
          at = end;
          continue;
        }
        case Step.AfterValue:
          this.expect(byte, 0x7d, Step.AfterObject);
          break;
        case Step.AfterObject:
          if (!isJsonWhitespace(byte)) throw notFilePayload();
          break;
      }
      at++;
    }
    return out;
  }

  end(): void {
    if (this.step !== Step.AfterObject) throw notFilePayload();
  }

  private expect(byte: number, wanted: number, next: Step): void {
    if (byte === wanted) this.step = next;
    else if (!isJsonWhitespace(byte)) throw notFilePayload();
  }

  private readName(byte: number): void {
    if (this.name.length >= NAME_LIMIT) throw notFilePayload();
    if (this.nameEscaped) this.nameEscaped = false;
    else if (byte === 0x5c) this.nameEscaped = true;
    else if (byte === 0x22) {
      let name: unknown;
      try {
        name = JSON.parse(`"${String.fromCharCode(...this.name)}"`);
      } catch {
        throw notFilePayload();
      }
      if (name !== 'file') throw notFilePayload();
      this.step = Step.BeforeColon;
      return;
    }
    this.name.push(byte);
  }
}
