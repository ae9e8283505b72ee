import { encryptFile, encryptJson } from '@jwe-transport/codec';
import { harEntry } from '@jwe-transport/test-support/har';

export const HAR_KEY = 'har-key-16-bytes';
export const OTHER_KEY = 'not-the-har-key!';

/** A real WAV file: 0.25 s of a 440 Hz tone, 8 kHz mono 16-bit PCM. */
export function makeWav(): Uint8Array {
  const rate = 8000;
  const samples = rate / 4;
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++)
    view.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12000), true);
  return bytes;
}

const JWE = [{ name: 'X-Encryption', value: 'JWE' }];

/** A HAR with a good entry, a wrong-key entry, a tampered entry, an encrypted audio upload and a plain one. */
export async function makeHar(wav: Uint8Array) {
  const good = await encryptJson({ txn_id: 'txn-good', email: 'patient@example.com' }, HAR_KEY, {
    kid: 'k1',
  });
  const wrong = await encryptJson({ txn_id: 'txn-wrong' }, OTHER_KEY, { kid: 'k-old' });
  const tampered = await encryptJson({ txn_id: 'txn-tampered' }, HAR_KEY, { kid: 'k1' });
  const tag = tampered.tag;
  const flipped = { ...tampered, tag: `${tag[0] === 'A' ? 'B' : 'A'}${tag.slice(1)}` };
  const audio = await encryptFile(wav, HAR_KEY, { kid: 'k1' });
  const base = 'https://api.example.test';
  return {
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: [
        harEntry(
          'POST',
          `${base}/v1/good?token=query-secret`,
          { headers: JWE, body: JSON.stringify(good) },
          { status: 200, body: '{"status":"ok"}' },
        ),
        harEntry(
          'POST',
          `${base}/v1/wrong-key`,
          { headers: JWE, body: JSON.stringify(wrong) },
          { status: 400 },
        ),
        harEntry(
          'POST',
          `${base}/v1/tampered`,
          { headers: JWE, body: JSON.stringify(flipped) },
          { status: 400 },
        ),
        harEntry(
          'POST',
          `${base}/v1/audio`,
          { headers: JWE, body: JSON.stringify(audio) },
          { status: 201, body: '{"id":"doc-1"}' },
        ),
        harEntry('GET', `${base}/v1/health`, {}, { status: 200, body: '{"up":true}' }),
      ],
    },
  };
}

/** Two sealed requests under HAR_KEY: one whose kid names another key ("k-old"), one named right ("k1"). */
export async function makeMisnamedHar() {
  const misnamed = await encryptJson({ txn_id: 'txn-misnamed' }, HAR_KEY, { kid: 'k-old' });
  const named = await encryptJson({ txn_id: 'txn-named' }, HAR_KEY, { kid: 'k1' });
  const base = 'https://api.example.test';
  return {
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: [
        harEntry(
          'POST',
          `${base}/v1/misnamed`,
          { headers: JWE, body: JSON.stringify(misnamed) },
          { status: 204 },
        ),
        harEntry('POST', `${base}/v1/named`, { headers: JWE, body: JSON.stringify(named) }, { status: 204 }),
      ],
    },
  };
}
