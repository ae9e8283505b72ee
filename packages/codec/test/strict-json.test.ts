import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJweError } from '../src/errors.js';
import { parseStrictJsonObject } from '../src/strict-json.js';

/*
 * The duplicate-member scan runs beside JSON.parse on protected headers, envelope text and file
 * payloads. It must agree with JSON on where strings end (escaped quotes, runs of backslashes),
 * accept every object JSON.stringify can write, and refuse any repeated name at any depth.
 */

const tricky = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('"', '\\', '\\"', '"\\', '\\\\', 'a"b', '{', '}', ',', ':', '[', ']', 'alg'),
  fc.array(fc.constantFrom('"', '\\', 'a', '{', ':', ','), { maxLength: 6 }).map((parts) => parts.join('')),
);
const name = tricky.filter((n) => n !== '__proto__');
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    tricky,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    tie('object'),
  ),
  object: fc.dictionary(name, tie('value'), { maxKeys: 4 }),
})).value;
const object = fc.dictionary(name, value, { minKeys: 1, maxKeys: 5 });

function refusal(text: string): string | undefined {
  try {
    parseStrictJsonObject(text, 'The test JSON');
    return undefined;
  } catch (error) {
    return isJweError(error) ? error.code : `not a JweError: ${String(error)}`;
  }
}

describe('strict JSON objects', () => {
  it('accepts whatever JSON.stringify writes (compact or indented), with the same value', () => {
    fc.assert(
      fc.property(object, fc.constantFrom(undefined, 2), (o, indent) => {
        const text = JSON.stringify(o, null, indent);
        expect(parseStrictJsonObject(text, 'x')).toEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it('refuses a repeated member name at the top level, whatever the names and values contain', () => {
    fc.assert(
      fc.property(object, value, (o, extra) => {
        const text = JSON.stringify(o);
        const repeated = Object.keys(o)[0]!;
        const withDuplicate = `${text.slice(0, -1)},${JSON.stringify(repeated)}:${JSON.stringify(extra)}}`;
        expect(refusal(withDuplicate)).toBe('ERR_JWE_INVALID');
      }),
      { numRuns: 400 },
    );
  });

  it('refuses a repeated member name inside a nested object', () => {
    fc.assert(
      fc.property(object, name, value, (o, inner, extra) => {
        const nested = JSON.stringify({ ...o, nested: { [inner]: extra } }).replace(
          `"nested":{${JSON.stringify(inner)}:`,
          `"nested":{${JSON.stringify(inner)}:1,${JSON.stringify(inner)}:`,
        );
        expect(refusal(nested)).toBe('ERR_JWE_INVALID');
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['escaped quote before a duplicate', '{"x":"a\\"b","alg":1,"alg":2}'],
    ['a value ending in an escaped backslash', '{"x":"\\\\","alg":1,"alg":2}'],
    ['three backslashes then a quote inside a value', '{"x":"\\\\\\"","alg":1,"alg":2}'],
    ['a duplicate spelled with an escape', '{"alg":1,"\\u0061lg":2}'],
    ['a duplicate hidden after an array of objects', '{"a":[{"b":1},{"b":2}],"a":3}'],
    ['__proto__', '{"__proto__":{}}'],
    ['__proto__ spelled with escapes', '{"\\u005f\\u005fproto__":1}'],
  ])('%s is refused', (_name, text) => {
    expect(refusal(text)).toBe('ERR_JWE_INVALID');
  });

  it.each([
    ['the same name in sibling objects', '{"a":{"k":1},"b":{"k":2}}'],
    ['the same name in array elements', '{"a":[{"k":1},{"k":2}]}'],
    ['names that only look alike', '{"alg":1,"Alg":2,"alg ":3}'],
    ['a quoted name inside a string value', '{"v":"\\"alg\\":1","alg":2}'],
  ])('%s is accepted', (_name, text) => {
    expect(refusal(text)).toBeUndefined();
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"x"'],
    ['null', 'null'],
    ['not JSON', '{"a":}'],
  ])('%s is not an object: ERR_JWE_INVALID', (_name, text) => {
    expect(refusal(text)).toBe('ERR_JWE_INVALID');
  });
});
