import { describe, expect, it } from 'vitest';
import { fileFromPayload, isStrictBase64 } from '../src/file-payload.js';
import { parsePlaintextJson } from '../src/strict-json.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parsePlaintextJson', () => {
  it.each([
    ['{"a":1,"a":2}', 'twice'],
    ['{"a":{"b":1,"c":[{"d":1,"d":2}]}}', 'twice'],
    ['{"k\\u0065y":1,"key":2}', 'twice'],
    ['{"x":"\\"","x":1}', 'twice'],
    ['{"__proto__":{"admin":true}}', '__proto__'],
    ['[{"constructor":{"prototype":{}}}]', 'constructor'],
    ['{"\\u005f_proto__":1}', '__proto__'],
  ])('refuses %s with 400 jwe.plaintext.invalid', (text, named) => {
    expect(() => parsePlaintextJson(bytes(text), true)).toThrow(
      expect.objectContaining({
        status: 400,
        type: 'jwe.plaintext.invalid',
        message: expect.stringContaining(named),
      }),
    );
  });

  it('accepts the same member name in different objects, and values that look like keys', () => {
    const text = '{"a":{"id":1},"b":{"id":2},"c":["a","a"],"d":"\\"a\\":1,","e":{"a\\\\":1,"a":2}}';
    expect(parsePlaintextJson(bytes(text), true)).toEqual(JSON.parse(text));
  });

  it('parses duplicates with JSON.parse semantics when strictness is relaxed', () => {
    expect(parsePlaintextJson(bytes('{"a":1,"a":2}'), false)).toEqual({ a: 2 });
  });

  it('refuses an empty plaintext, invalid JSON and invalid UTF-8, and passes top-level scalars on', () => {
    expect(() => parsePlaintextJson(new Uint8Array(0), true)).toThrow(
      expect.objectContaining({ type: 'entity.parse.failed', code: 'ERR_BODY_PARSE' }),
    );
    for (const scalar of ['null', '7', '"text"', 'true']) {
      expect(parsePlaintextJson(bytes(scalar), true)).toEqual(JSON.parse(scalar));
    }
    expect(() => parsePlaintextJson(bytes('{"a":'), true)).toThrow(
      expect.objectContaining({ type: 'entity.parse.failed' }),
    );
    expect(() => parsePlaintextJson(Uint8Array.of(0x22, 0xff, 0x22), true)).toThrow(
      expect.objectContaining({ type: 'entity.parse.failed' }),
    );
  });
});

describe('maxDepth', () => {
  it('refuses JSON nested deeper than the limit (30,000 levels fit in 60 KB), with or without strictJson', () => {
    const deep = bytes(`${'['.repeat(30_000)}${']'.repeat(30_000)}`);
    for (const strict of [true, false]) {
      expect(() => parsePlaintextJson(deep, strict)).toThrow(
        expect.objectContaining({ status: 400, type: 'entity.parse.failed', code: 'ERR_JSON_TOO_DEEP' }),
      );
    }
    const atLimit = `${'{"a":'.repeat(999)}[]${'}'.repeat(999)}`;
    expect(parsePlaintextJson(bytes(atLimit), true)).toBeTypeOf('object');
    expect(() => parsePlaintextJson(bytes(`[${atLimit}]`), true)).toThrow(
      expect.objectContaining({ code: 'ERR_JSON_TOO_DEEP' }),
    );
    expect(parsePlaintextJson(bytes('[[[1]]]'), true, 3)).toEqual([[[1]]]);
    expect(() => parsePlaintextJson(bytes('[[[[1]]]]'), true, 3)).toThrow(/deeper than 3 levels/);
    // Brackets inside strings do not count.
    expect(parsePlaintextJson(bytes(JSON.stringify({ s: '['.repeat(5000) })), true)).toEqual({
      s: '['.repeat(5000),
    });
  });
});

describe('isStrictBase64', () => {
  it('accepts canonical padded base64 and refuses every other spelling', () => {
    expect(isStrictBase64('')).toBe(true);
    expect(isStrictBase64('QQ==')).toBe(true);
    expect(isStrictBase64('QUI=')).toBe(true);
    expect(isStrictBase64('+/+/')).toBe(true);
    for (const bad of ['QQ', 'QR==', 'QUJ=', 'Q===', 'QQ=A', '-_-_', 'QU I=', 'QUI=\n', 'ŁUI=', 'QQ==QQ==']) {
      expect({ bad, ok: isStrictBase64(bad) }).toEqual({ bad, ok: false });
    }
  });

  it('checks a file payload of 8 MiB in one linear pass (a regular expression overflows the stack here)', () => {
    const file = Buffer.alloc(8 * 2 ** 20, 0xa5);
    const payload = bytes(JSON.stringify({ file: file.toString('base64') }));
    expect(Buffer.from(fileFromPayload(payload, 'file', true)).equals(file)).toBe(true);
    const broken = bytes(JSON.stringify({ file: `${file.toString('base64').slice(0, -4)}AB-=` }));
    expect(() => fileFromPayload(broken, 'file', true)).toThrow(
      expect.objectContaining({ type: 'upload.invalid' }),
    );
  });
});
