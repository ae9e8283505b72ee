import { decryptJson, encryptSync } from '@jwe-transport/codec';
import { describe, expect, it } from 'vitest';
import { envelopeJson } from '../src/envelope-json.js';

const KEY = 'abcdefghijklmnop';

describe('envelopeJson', () => {
  it.each([
    ['no kid', undefined],
    ['a plain kid', 'prod-2025'],
    ['a kid that JSON must escape', 'q"b\\s\n\u2028é\u0001'],
  ])('writes the same text as JSON.stringify for an envelope with %s', async (_, kid) => {
    const envelope = encryptSync('{"a":1}', KEY, kid === undefined ? {} : { kid });
    const text = envelopeJson(envelope);
    expect(text).toBe(JSON.stringify(envelope));
    expect(await decryptJson(text, KEY)).toEqual({ a: 1 });
  });

  it('stringifies envelopes with other members as they are', () => {
    const envelope = { ...encryptSync('{}', KEY), aad: 'eyJ4IjoxfQ', unprotected: { cty: 'json' } };
    expect(envelopeJson(envelope)).toBe(JSON.stringify(envelope));
    const { protected: _, ...withoutProtected } = encryptSync('{}', KEY);
    expect(envelopeJson(withoutProtected)).toBe(JSON.stringify(withoutProtected));
  });
});
