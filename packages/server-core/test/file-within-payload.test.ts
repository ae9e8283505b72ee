import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { fileFromPayload } from '../src/file-payload.js';
import { fileWithinPayload } from '../src/node/file-within-payload.js';

/*
 * The in-memory upload path decodes a canonical payload's file within the plaintext. Whatever the
 * payload, the outcome must be fileFromPayload's: the same file, the same error, or (for any other
 * spelling) no answer, so that fileFromPayload reads it.
 */

const pattern = (length: number) => Buffer.from(Array.from({ length }, (_, i) => (i * 31 + 7) & 0xff));

function outcomeOf(read: () => Uint8Array | undefined) {
  try {
    const file = read();
    return file === undefined ? 'declined' : Buffer.from(file).toString('hex');
  } catch (error) {
    const { type, message } = error as { type?: string; message: string };
    return { type, message };
  }
}

/** fileWithinPayload's outcome, and fileFromPayload's for the same bytes (strict and not). */
function both(payload: string, field = 'file') {
  const within = outcomeOf(() => fileWithinPayload(Buffer.from(payload, 'latin1'), field));
  const whole = outcomeOf(() => fileFromPayload(Buffer.from(payload, 'latin1'), field, true));
  const loose = outcomeOf(() => fileFromPayload(Buffer.from(payload, 'latin1'), field, false));
  return { within, whole, loose };
}

function expectSame(payload: string, field = 'file') {
  const { within, whole, loose } = both(payload, field);
  if (within !== 'declined') {
    expect(within).toEqual(whole);
    expect(within).toEqual(loose);
  }
  return { within, whole };
}

describe('fileWithinPayload', () => {
  it.each([0, 1, 2, 3, 49_151, 49_152, 49_153, 98_304, 200_001])(
    'a canonical payload of a %d-byte file: the same file as fileFromPayload, decoded in place',
    (size) => {
      const file = pattern(size);
      const payload = Buffer.from(`{"file":"${file.toString('base64')}"}`, 'latin1');
      const copy = Buffer.from(payload);
      const within = fileWithinPayload(payload, 'file');
      expect(within).toBeDefined();
      expect(Buffer.from(within!).equals(file)).toBe(true);
      expect(within!.buffer).toBe(payload.buffer); // decoded within the plaintext's own memory
      expect(Buffer.from(fileFromPayload(copy, 'file', true)).equals(file)).toBe(true);
    },
  );

  it('another field name, JSON-quoted as JSON writes it', () => {
    const file = pattern(1000);
    const { within } = expectSame(`{"doc":"${file.toString('base64')}"}`, 'doc');
    expect(within).toBe(file.toString('hex'));
    expect(both(`{"file":"${file.toString('base64')}"}`, 'doc').within).toBe('declined');
  });

  it('bad base64 anywhere, in the first piece or the last: the same upload error', () => {
    const good = pattern(100_000).toString('base64');
    const bad = [
      `${good.slice(0, 10)}-${good.slice(11)}`,
      `${good.slice(0, 70_000)}_${good.slice(70_001)}`,
      `${good.slice(0, 65_532)}AA==${good.slice(65_536)}`,
      `${good.slice(0, -1)}`,
      `${good}A`,
      `${good.slice(0, -4)}AB==`,
      `${good.slice(0, -4)}ABC=`,
      `${good.slice(0, -2)}=A`,
      `${good.slice(0, 100)}\u00e9${good.slice(101)}`,
      `${good.slice(0, 100)} ${good.slice(101)}`,
      `${good.slice(0, 100)}\n${good.slice(101)}`,
    ];
    for (const text of bad) {
      const { within, whole } = expectSame(`{"file":"${text}"}`);
      expect(within).not.toBe('declined');
      expect(whole).toMatchObject({ type: 'upload.invalid' });
    }
  });

  it('any other spelling is left to fileFromPayload', () => {
    const good = pattern(3000).toString('base64');
    const others = [
      `{"file": "${good}"}`,
      ` {"file":"${good}"}`,
      `{"file":"${good}"} `,
      `{"file":"${good}","x":1}`,
      `{"x":1,"file":"${good}"}`,
      `{"file":"${good.slice(0, 8)}\\/${good.slice(10)}"}`,
      `{"file":"${good}"}}`,
      `{"file":"${good}`,
      `{"file":"a","file":"${good}"}`,
      `{"file":"${good}"`,
      '{"file":"',
      '',
    ];
    for (const payload of others) expect(expectSame(payload).within).toBe('declined');
  });
});
