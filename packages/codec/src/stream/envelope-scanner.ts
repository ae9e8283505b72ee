import { invalid, JweError, quote } from '../errors.js';
import { decodeUtf8 } from '../header.js';
import { parseStrictJsonObject } from '../strict-json.js';
import { isJsonWhitespace, JsonStringStream } from './json-string-stream.js';

/*
 * An incremental reader for the envelope's top-level JSON object. Members may come in any order
 * with any JSON whitespace. `ciphertext` is handed on in spans as it arrives; every other member
 * is small and is collected whole (up to MEMBER_LIMIT bytes) and parsed with JSON.parse, so its
 * escapes and types are judged exactly as in the one-shot path.
 */

export type ScanEvent =
  | { kind: 'member'; name: string; value: string | Record<string, unknown> }
  | { kind: 'ciphertext-start' }
  | { kind: 'ciphertext'; text: Uint8Array }
  | { kind: 'ciphertext-end' }
  | { kind: 'end' };

/** Largest member other than `ciphertext` we collect; real ones are well under 1 KiB. */
const MEMBER_LIMIT = 64 * 1024;

const STRING_MEMBERS = new Set(['protected', 'iv', 'ciphertext', 'tag', 'kid', 'encrypted_key', 'aad']);
const OBJECT_MEMBERS = new Set(['header', 'unprotected']);

enum State {
  BeforeObject,
  BeforeName,
  BeforeFirstName,
  Name,
  BeforeColon,
  BeforeValue,
  StringValue,
  ObjectValue,
  Ciphertext,
  AfterValue,
  AfterObject,
}

const notJson = () => invalid('The envelope JSON is not valid JSON.');

export class EnvelopeScanner {
  private state = State.BeforeObject;
  private name = '';
  private readonly seen = new Set<string>();
  private collected: Uint8Array[] = [];
  private collectedLength = 0;
  // Nested-object tracking for `header`/`unprotected`: depth, and whether we are inside a string.
  private depth = 0;
  private inString = false;
  private escaped = false;
  private readonly ciphertext = new JsonStringStream('The "ciphertext" member');

  /** Feeds the next chunk; returns what it completed, in order. */
  feed(bytes: Uint8Array): ScanEvent[] {
    const events: ScanEvent[] = [];
    let at = 0;
    while (at < bytes.length) {
      const byte = bytes[at]!;
      switch (this.state) {
        case State.BeforeObject:
          if (byte === 0x7b /* { */) this.state = State.BeforeFirstName;
          else if (!isJsonWhitespace(byte)) {
            throw invalid(
              'Streaming decryption reads the JSON serialization: the input must start with "{".',
            );
          }
          at++;
          break;
        case State.BeforeFirstName:
        case State.BeforeName:
          if (byte === 0x22 /* " */) {
            this.state = State.Name;
            this.startCollecting();
            at++;
          } else if (byte === 0x7d /* } */ && this.state === State.BeforeFirstName) {
            this.finishObject(events);
            at++;
          } else if (isJsonWhitespace(byte)) at++;
          else throw notJson();
          break;
        case State.Name:
          at = this.collectString(bytes, at, () => {
            this.name = this.takeName();
            this.state = State.BeforeColon;
          });
          break;
        case State.BeforeColon:
          if (byte === 0x3a /* : */) this.state = State.BeforeValue;
          else if (!isJsonWhitespace(byte)) throw notJson();
          at++;
          break;
        case State.BeforeValue:
          if (isJsonWhitespace(byte)) {
            at++;
            break;
          }
          this.startValue(byte, events);
          at++;
          break;
        case State.Ciphertext: {
          const end = this.ciphertext.read(bytes, at, (text) => events.push({ kind: 'ciphertext', text }));
          if (end === -1) return events;
          events.push({ kind: 'ciphertext-end' });
          this.state = State.AfterValue;
          at = end;
          break;
        }
        case State.StringValue:
          at = this.collectString(bytes, at, () => {
            events.push({ kind: 'member', name: this.name, value: this.takeString() });
            this.state = State.AfterValue;
          });
          break;
        case State.ObjectValue:
          at = this.collectObject(bytes, at, events);
          break;
        case State.AfterValue:
          if (byte === 0x2c /* , */) this.state = State.BeforeName;
          else if (byte === 0x7d /* } */) this.finishObject(events);
          else if (!isJsonWhitespace(byte)) throw notJson();
          at++;
          break;
        case State.AfterObject:
          if (!isJsonWhitespace(byte)) throw invalid('The envelope JSON has content after its closing "}".');
          at++;
          break;
      }
    }
    return events;
  }

  /** Call at the end of input: throws unless a whole envelope object was read. */
  finish(): void {
    if (this.state !== State.AfterObject) throw invalid('The envelope JSON ends before its closing "}".');
  }

  private startValue(byte: number, events: ScanEvent[]): void {
    const name = this.name;
    if (STRING_MEMBERS.has(name)) {
      if (byte !== 0x22) throw invalid(`The envelope's "${name}" must be a string.`);
      if (name === 'ciphertext') {
        this.state = State.Ciphertext;
        events.push({ kind: 'ciphertext-start' });
      } else {
        this.state = State.StringValue;
        this.startCollecting();
      }
    } else {
      if (byte !== 0x7b) throw invalid(`The envelope's "${name}" must be a JSON object.`);
      this.state = State.ObjectValue;
      this.startCollecting();
      this.collect(Uint8Array.of(byte));
      this.depth = 1;
      this.inString = false;
      this.escaped = false;
    }
  }

  private finishObject(events: ScanEvent[]): void {
    for (const name of ['iv', 'ciphertext', 'tag']) {
      if (!this.seen.has(name)) throw invalid(`The envelope is missing its "${name}" member.`);
    }
    this.state = State.AfterObject;
    events.push({ kind: 'end' });
  }

  private startCollecting(): void {
    this.collected = [];
    this.collectedLength = 0;
    this.escaped = false;
  }

  private collect(span: Uint8Array): void {
    this.collectedLength += span.length;
    if (this.collectedLength > MEMBER_LIMIT) {
      throw new JweError(
        'ERR_JWE_TOO_LARGE',
        `An envelope member other than "ciphertext" is larger than ${MEMBER_LIMIT} bytes; this is not a valid envelope.`,
      );
    }
    this.collected.push(new Uint8Array(span));
  }

  private collectedText(what: string): string {
    const all = new Uint8Array(this.collectedLength);
    let offset = 0;
    for (const span of this.collected) {
      all.set(span, offset);
      offset += span.length;
    }
    this.collected = [];
    return decodeUtf8(all, what);
  }

  /** Collects raw string bytes (escapes included) up to the unescaped closing quote. */
  private collectString(bytes: Uint8Array, at: number, done: () => void): number {
    for (let i = at; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (this.escaped) this.escaped = false;
      else if (byte === 0x5c) this.escaped = true;
      else if (byte === 0x22) {
        this.collect(bytes.subarray(at, i));
        done();
        return i + 1;
      }
    }
    this.collect(bytes.subarray(at));
    return bytes.length;
  }

  private parseCollectedString(what: string): string {
    try {
      return JSON.parse(`"${this.collectedText(what)}"`) as string;
    } catch (error) {
      if (error instanceof JweError) throw error;
      throw notJson();
    }
  }

  private takeName(): string {
    const name = this.parseCollectedString('The envelope JSON');
    if (name === 'recipients') {
      throw new JweError(
        'ERR_JWE_UNSUPPORTED',
        'General JWE JSON serialization ("recipients") is not supported: send the flattened form.',
      );
    }
    if (!STRING_MEMBERS.has(name) && !OBJECT_MEMBERS.has(name)) {
      throw invalid(
        `The envelope has an unexpected member ${quote(name)}; expected kid, protected, iv, ciphertext, tag.`,
      );
    }
    if (this.seen.has(name)) throw invalid(`The envelope JSON contains the member "${name}" more than once.`);
    this.seen.add(name);
    return name;
  }

  private takeString(): string {
    return this.parseCollectedString('The envelope JSON');
  }

  private collectObject(bytes: Uint8Array, at: number, events: ScanEvent[]): number {
    for (let i = at; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === 0x5c) this.escaped = true;
        else if (byte === 0x22) this.inString = false;
      } else if (byte === 0x22) this.inString = true;
      else if (byte === 0x7b || byte === 0x5b) this.depth++;
      else if (byte === 0x7d || byte === 0x5d) {
        if (--this.depth === 0) {
          this.collect(bytes.subarray(at, i + 1));
          const text = this.collectedText('The envelope JSON');
          const value = parseStrictJsonObject(text, `The envelope's "${this.name}"`);
          events.push({ kind: 'member', name: this.name, value });
          this.state = State.AfterValue;
          return i + 1;
        }
      }
    }
    this.collect(bytes.subarray(at));
    return bytes.length;
  }
}
