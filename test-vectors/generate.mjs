// Regenerates the shared test vectors: `pnpm vectors` (builds the codec, then runs this file).
//
// Our own vectors use fixed IVs (derived from each vector's name), so running this again gives the
// same bytes. Vectors made by the peers (jwcrypto, jose C) have random IVs; they are kept from the
// existing files and only remade when missing or with `--refresh-peers`.
import { Buffer } from 'node:buffer';
import { createCipheriv, createHash, createHmac } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as codec from '../packages/codec/dist/index.node.js';
import { joseCEncrypt, jwcryptoEncrypt } from './peers/index.mjs';

const here = new URL('.', import.meta.url);
const refreshPeers = process.argv.includes('--refresh-peers');

const KEY = 'k3y-f0r-t3st1ng!';
const OTHER_KEY = 'an0ther-k3y-0000';
const UTF8_KEY = 'ключ12345678'; // 12 characters, 16 bytes of UTF-8
const RESPONSE_KEY = 'r3sp0nse-k3y-016';
const { PROTECTED_COMPACT, PROTECTED_SPACED } = codec;

const b64u = (bytes) => Buffer.from(bytes).toString('base64url');
const b64 = (bytes) => Buffer.from(bytes).toString('base64');
const utf8 = (text) => new Uint8Array(Buffer.from(text, 'utf8'));
const ivFor = (name) => new Uint8Array(createHash('sha256').update(`iv:${name}`).digest().subarray(0, 16));

function pattern(length, seed) {
  const out = new Uint8Array(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

function describePlaintext(bytes) {
  const plaintext = { base64: b64(bytes) };
  try {
    plaintext.text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: the base64 form alone describes it.
  }
  return plaintext;
}

/* An independent A128CBC-HS256 (node:crypto only) for envelopes our encoder never emits. */
function rawSeal({ key, iv, plaintext, aad, pkcs7 = true }) {
  const keyBytes = Buffer.from(key + key, 'utf8');
  const cipher = createCipheriv('aes-128-cbc', keyBytes.subarray(16), iv).setAutoPadding(pkcs7);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(Buffer.byteLength(aad, 'latin1')) * 8n);
  const mac = createHmac('sha256', keyBytes.subarray(0, 16))
    .update(Buffer.from(aad, 'latin1'))
    .update(iv)
    .update(ciphertext)
    .update(al)
    .digest();
  return { ciphertext, tag: mac.subarray(0, 16), mac };
}

function rawEnvelope({ key, iv, plaintext, aad, protectedText, pkcs7 }) {
  const { ciphertext, tag } = rawSeal({ key, iv, plaintext, aad, pkcs7 });
  const envelope = {};
  if (protectedText !== undefined) envelope.protected = protectedText;
  Object.assign(envelope, { iv: b64u(iv), ciphertext: b64u(ciphertext), tag: b64u(tag) });
  return envelope;
}

function vectorFrom({ name, description, producer, kind, key, kid, plaintext, extra = {}, envelope }) {
  const vector = { name, description, producer, kind, key };
  if (kid !== undefined) vector.kid = kid;
  vector.plaintext = describePlaintext(plaintext);
  Object.assign(vector, extra);
  vector.protected = envelope.protected;
  vector.iv = envelope.iv;
  vector.envelope = envelope;
  vector.compact = `${envelope.protected}..${envelope.iv}.${envelope.ciphertext}.${envelope.tag}`;
  return vector;
}

async function ours({ name, description, kind = 'text', key = KEY, kid, value }) {
  const options = { unsafeFixedIv: ivFor(name), ...(kid === undefined ? {} : { kid }) };
  let envelope;
  let plaintext;
  const extra = {};
  if (kind === 'json') {
    envelope = await codec.encryptJson(value, key, options);
    plaintext = utf8(JSON.stringify(value));
    extra.json = value;
  } else if (kind === 'file') {
    envelope = await codec.encryptFile(value, key, options);
    plaintext = utf8(`{"file":"${b64(value)}"}`);
    extra.file = { base64: b64(value) };
  } else {
    plaintext = typeof value === 'string' ? utf8(value) : value;
    envelope = await codec.encrypt(plaintext, key, options);
  }
  return vectorFrom({
    name,
    description,
    producer: 'jwe-transport',
    kind,
    key,
    kid,
    plaintext,
    extra,
    envelope,
  });
}

function readExisting(file) {
  const path = new URL(file, here);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

const previousPeerVectors = new Map(
  (readExisting('envelopes.json')?.vectors ?? [])
    .filter((v) => v.producer !== 'jwe-transport' && v.producer !== 'reference')
    .map((v) => [v.name, v]),
);

async function peer(spec, make) {
  const kept = previousPeerVectors.get(spec.name);
  if (kept && !refreshPeers) return kept;
  const plaintext = typeof spec.value === 'string' ? utf8(spec.value) : spec.value;
  const envelope = await make(plaintext);
  // Member order as in our own vectors, so the files read alike.
  const ordered = {};
  for (const member of ['kid', 'protected', 'encrypted_key', 'iv', 'ciphertext', 'tag']) {
    if (member in envelope) ordered[member] = envelope[member];
  }
  return vectorFrom({ ...spec, plaintext, envelope: ordered });
}

const registration = { aadhaar_number: '999941057058' };
const sessionResult = {
  data: {
    output: [
      {
        template_id: 'transcript_template',
        value: b64(utf8('Patient reports mild headache since Tuesday.')),
        name: 'Transcript',
        status: 'success',
        errors: [],
        warnings: [],
      },
    ],
  },
};
const smallFile = new Uint8Array([...utf8('%PDF-1.4\n'), ...pattern(300, 9)]);

const vectors = [
  await ours({ name: 'text-empty', description: 'Empty plaintext: one full block of padding.', value: '' }),
  await ours({ name: 'text-1-byte', description: 'One byte of plaintext.', value: 'a' }),
  await ours({ name: 'text-15-bytes', description: 'One byte short of a block.', value: 'fifteen bytes!!' }),
  await ours({
    name: 'text-16-bytes',
    description: 'Exactly one block: padding adds a block.',
    value: 'sixteen bytes!!!',
  }),
  await ours({ name: 'text-17-bytes', description: 'One byte over a block.', value: 'seventeen bytes!!' }),
  await ours({
    name: 'json-registration',
    description: 'The registration-initiation body (spec 4.2) with a top-level kid.',
    kind: 'json',
    kid: 'kid-2024-01',
    value: registration,
  }),
  await ours({
    name: 'json-session-result',
    description: 'A session result whose output value is itself base64 (spec 2.9).',
    kind: 'json',
    value: sessionResult,
  }),
  await ours({
    name: 'text-unicode',
    description: 'Multi-byte UTF-8: Devanagari, CJK, accents and astral-plane emoji.',
    kid: 'kid-2024-01',
    value: 'नमस्ते दुनिया — 你好 — émigré — 🎉🩺',
  }),
  await ours({
    name: 'bytes-all-values',
    description: 'All 256 byte values; not UTF-8, so the plaintext has no text form.',
    kind: 'bytes',
    value: Uint8Array.from({ length: 256 }, (_, i) => i),
  }),
  await ours({
    name: 'bytes-4-kib',
    description: '4 KiB of pseudo-random bytes.',
    kind: 'bytes',
    value: pattern(4096, 4),
  }),
  await ours({
    name: 'file-small-pdf',
    description: 'An encrypted upload: plaintext {"file":"<standard base64>"} of a small PDF-like file.',
    kind: 'file',
    kid: 'kid-2024-01',
    value: smallFile,
  }),
  await ours({
    name: 'file-empty',
    description: 'An empty file: plaintext {"file":""}.',
    kind: 'file',
    value: new Uint8Array(0),
  }),
  await ours({
    name: 'text-utf8-key',
    description: 'Shared key of 12 characters that are 16 bytes of UTF-8; the key is doubled as bytes.',
    key: UTF8_KEY,
    value: 'keyed by UTF-8 bytes',
  }),
  vectorFrom({
    name: 'text-spaced-protected',
    description:
      'Protected header spelled {"alg": "dir", "enc": "A128CBC-HS256"} (with spaces, as Python json.dumps writes it); the tag covers that exact text.',
    producer: 'reference',
    kind: 'text',
    key: KEY,
    plaintext: utf8('spaced header'),
    envelope: rawEnvelope({
      key: KEY,
      iv: ivFor('text-spaced-protected'),
      plaintext: utf8('spaced header'),
      aad: PROTECTED_SPACED,
      protectedText: PROTECTED_SPACED,
    }),
  }),
  await peer(
    {
      name: 'jwcrypto-json-kid',
      description: 'Made by python3-jwcrypto with a top-level kid.',
      producer: 'jwcrypto',
      kind: 'json',
      key: KEY,
      kid: 'kid-2024-01',
      value: JSON.stringify(registration),
      extra: { json: registration },
    },
    async (plaintext) => (await jwcryptoEncrypt(KEY, plaintext, { kid: 'kid-2024-01' }))[0],
  ),
  await peer(
    {
      name: 'jwcrypto-bytes-all-values',
      description: 'Made by python3-jwcrypto: all 256 byte values.',
      producer: 'jwcrypto',
      kind: 'bytes',
      key: KEY,
      value: Uint8Array.from({ length: 256 }, (_, i) => i),
    },
    async (plaintext) => (await jwcryptoEncrypt(KEY, plaintext))[0],
  ),
  await peer(
    {
      name: 'jwcrypto-utf8-key',
      description: 'Made by python3-jwcrypto with the 16-byte UTF-8 shared key.',
      producer: 'jwcrypto',
      kind: 'text',
      key: UTF8_KEY,
      value: 'from jwcrypto',
    },
    async (plaintext) => (await jwcryptoEncrypt(UTF8_KEY, plaintext))[0],
  ),
  await peer(
    {
      name: 'jose-c-file',
      description: 'Made by the jose C tool, which writes "encrypted_key":"" for dir (kept here on purpose).',
      producer: 'jose-c',
      kind: 'file',
      key: KEY,
      value: `{"file":"${b64(smallFile)}"}`,
      extra: { file: { base64: b64(smallFile) } },
    },
    (plaintext) => joseCEncrypt(KEY, plaintext, { raw: true }),
  ),
];

/* ---------- negative cases ---------- */

// A base envelope whose iv, ciphertext and tag all contain "-" and "_", so alphabet swaps apply.
let base;
for (let seed = 0; !base; seed++) {
  const iv = new Uint8Array(16).fill(0xfb);
  new DataView(iv.buffer).setUint32(12, seed);
  const candidate = await codec.encrypt('{"aadhaar_number":"999941057058"}', KEY, { unsafeFixedIv: iv });
  if ([candidate.iv, candidate.ciphertext, candidate.tag].every((t) => t.includes('-') && t.includes('_'))) {
    base = candidate;
  }
}

const malformed = [];
const bad = (name, description, input, code, more = {}) =>
  malformed.push({ name, description, key: KEY, ...more, input, code });

for (const member of ['protected', 'iv', 'ciphertext', 'tag']) {
  const text = base[member];
  const mutations = [
    ['padded', `${text}${'='.repeat((4 - (text.length % 4)) % 4 || 4)}`, 'with "=" padding'],
    ['space', `${text.slice(0, 4)} ${text.slice(4)}`, 'with a space inside'],
    ['newline', `${text}\n`, 'with a trailing newline'],
    [
      'length-mod-4-is-1',
      text + 'A'.repeat((5 - (text.length % 4)) % 4 || 4),
      'with a length of 4n+1 characters',
    ],
    [
      'non-ascii',
      `${text.slice(0, 2)}${String.fromCharCode(text.charCodeAt(2) + 0x100)}${text.slice(3)}`,
      'with a non-ASCII character whose low byte is an alphabet character',
    ],
  ];
  if (text.includes('-')) mutations.push(['plus', text.replaceAll('-', '+'), 'with "+" for "-"']);
  if (text.includes('_')) mutations.push(['slash', text.replaceAll('_', '/'), 'with "/" for "_"']);
  if (text.length % 4 !== 0) {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet[alphabet.indexOf(text.at(-1)) | 1];
    mutations.push([
      'trailing-bits',
      text.slice(0, -1) + last,
      'whose last character has non-zero trailing bits',
    ]);
  }
  for (const [suffix, mutated, what] of mutations) {
    bad(
      `base64url-${member}-${suffix}`,
      `The "${member}" member ${what}.`,
      { ...base, [member]: mutated },
      'ERR_JWE_INVALID',
    );
  }
}

const baseTag = Buffer.from(base.tag, 'base64url');
for (const length of [0, 1, 15, 17, 32]) {
  const tag = Buffer.alloc(length);
  baseTag.copy(tag, 0, 0, Math.min(16, length));
  bad(
    `tag-${length}-bytes`,
    `A ${length}-byte tag (only 16 is valid).`,
    { ...base, tag: b64u(tag) },
    'ERR_JWE_DECRYPTION_FAILED',
  );
}
{
  const { mac } = rawSeal({
    key: KEY,
    iv: Buffer.from(base.iv, 'base64url'),
    plaintext: Buffer.from('{"aadhaar_number":"999941057058"}'),
    aad: PROTECTED_COMPACT,
  });
  bad(
    'tag-full-hmac',
    'The full 32-byte HMAC-SHA-256 instead of its first 16 bytes.',
    { ...base, tag: b64u(mac) },
    'ERR_JWE_DECRYPTION_FAILED',
  );
}
for (const member of ['iv', 'ciphertext', 'tag']) {
  const bytes = Buffer.from(base[member], 'base64url');
  bytes[bytes.length >> 1] ^= 0x04;
  bad(
    `flipped-bit-${member}`,
    `One bit of the decoded "${member}" changed.`,
    { ...base, [member]: b64u(bytes) },
    'ERR_JWE_DECRYPTION_FAILED',
  );
}
bad(
  'protected-respelled',
  'The protected header swapped for its spaced spelling; the tag covers the compact one.',
  { ...base, protected: PROTECTED_SPACED },
  'ERR_JWE_DECRYPTION_FAILED',
);
bad('wrong-key', 'Decrypted with a different shared key.', base, 'ERR_JWE_DECRYPTION_FAILED', {
  key: OTHER_KEY,
});
{
  const iv = ivFor('bad-padding');
  const blocks = Buffer.alloc(16, 0x11); // pad byte 17 cannot be valid in a 16-byte block
  bad(
    'bad-padding-valid-tag',
    'A valid tag over a ciphertext whose last block has invalid PKCS#7 padding: must look exactly like a bad tag.',
    rawEnvelope({
      key: KEY,
      iv,
      plaintext: blocks,
      aad: PROTECTED_COMPACT,
      protectedText: PROTECTED_COMPACT,
      pkcs7: false,
    }),
    'ERR_JWE_DECRYPTION_FAILED',
  );
  for (const [name, length] of [
    ['empty-ciphertext-valid-tag', 0],
    ['partial-block-valid-tag', 20],
  ]) {
    const ciphertext = pattern(length, 5);
    const aad = Buffer.from(PROTECTED_COMPACT);
    const al = Buffer.alloc(8);
    al.writeBigUInt64BE(BigInt(aad.length * 8));
    const tag = createHmac('sha256', Buffer.from(KEY + KEY).subarray(0, 16))
      .update(aad)
      .update(iv)
      .update(ciphertext)
      .update(al)
      .digest()
      .subarray(0, 16);
    bad(
      name,
      `A valid tag over a ${length}-byte ciphertext (not whole AES blocks).`,
      {
        protected: PROTECTED_COMPACT,
        iv: b64u(iv),
        ciphertext: b64u(ciphertext),
        tag: b64u(tag),
      },
      'ERR_JWE_DECRYPTION_FAILED',
    );
  }
}

const headerCases = [
  ['header-not-json', 'Protected header that is not JSON.', utf8('{alg:"dir"}'), 'ERR_JWE_INVALID'],
  [
    'header-array',
    'Protected header that is a JSON array.',
    utf8('["dir","A128CBC-HS256"]'),
    'ERR_JWE_INVALID',
  ],
  [
    'header-invalid-utf8',
    'Protected header bytes that are not UTF-8.',
    Uint8Array.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
    'ERR_JWE_INVALID',
  ],
  [
    'header-duplicate-alg',
    'Duplicate "alg" (JSON.parse would keep the last).',
    utf8('{"alg":"RSA1_5","enc":"A128CBC-HS256","alg":"dir"}'),
    'ERR_JWE_INVALID',
  ],
  [
    'header-proto',
    'A "__proto__" member.',
    utf8('{"alg":"dir","enc":"A128CBC-HS256","__proto__":{"zip":"DEF"}}'),
    'ERR_JWE_INVALID',
  ],
  [
    'header-crit',
    'A "crit" parameter.',
    utf8('{"alg":"dir","enc":"A128CBC-HS256","crit":["exp"],"exp":1}'),
    'ERR_JWE_UNSUPPORTED',
  ],
  [
    'header-zip',
    'Compression ("zip": "DEF").',
    utf8('{"alg":"dir","enc":"A128CBC-HS256","zip":"DEF"}'),
    'ERR_JWE_UNSUPPORTED',
  ],
  ['header-alg-a128kw', 'alg A128KW.', utf8('{"alg":"A128KW","enc":"A128CBC-HS256"}'), 'ERR_JWE_UNSUPPORTED'],
  ['header-enc-a256gcm', 'enc A256GCM.', utf8('{"alg":"dir","enc":"A256GCM"}'), 'ERR_JWE_UNSUPPORTED'],
  ['header-no-enc', 'No enc.', utf8('{"alg":"dir"}'), 'ERR_JWE_UNSUPPORTED'],
  [
    'header-kid-number',
    'A kid that is not a string.',
    utf8('{"alg":"dir","enc":"A128CBC-HS256","kid":7}'),
    'ERR_JWE_INVALID',
  ],
];
for (const [name, description, header, code] of headerCases) {
  const protectedText = b64u(header);
  const iv = ivFor(name);
  bad(
    name,
    `${description} The tag is valid for it, so only the header check can refuse it.`,
    rawEnvelope({ key: KEY, iv, plaintext: utf8('{}'), aad: protectedText, protectedText }),
    code,
  );
}

const { iv: _iv, ...withoutIv } = base;
bad('shape-missing-iv', 'No "iv" member.', withoutIv, 'ERR_JWE_INVALID');
bad('shape-unknown-member', 'An unknown top-level member.', { ...base, payload: 'x' }, 'ERR_JWE_INVALID');
bad(
  'shape-recipients',
  'General serialization ("recipients").',
  { ...base, recipients: [{}] },
  'ERR_JWE_UNSUPPORTED',
);
bad(
  'shape-encrypted-key',
  'A non-empty encrypted_key with dir.',
  { ...base, encrypted_key: 'AAAA' },
  'ERR_JWE_UNSUPPORTED',
);
bad(
  'shape-iv-12-bytes',
  'A 12-byte IV (A128CBC-HS256 needs 16).',
  { ...base, iv: b64u(new Uint8Array(12)) },
  'ERR_JWE_INVALID',
);
bad('shape-array', 'A JSON array instead of an object.', [base], 'ERR_JWE_INVALID');
bad(
  'shape-zip-unprotected',
  'zip in the unprotected per-recipient header.',
  { ...base, header: { zip: 'DEF' } },
  'ERR_JWE_UNSUPPORTED',
);
bad(
  'text-duplicate-member',
  'Envelope JSON text with "tag" twice.',
  JSON.stringify(base).replace('{', `{"tag":"${'A'.repeat(22)}",`),
  'ERR_JWE_INVALID',
);
bad('input-empty-string', 'An empty string.', '', 'ERR_JWE_INVALID');
const compact = `${base.protected}..${base.iv}.${base.ciphertext}.${base.tag}`;
bad(
  'compact-four-parts',
  'Compact form with four parts.',
  compact.slice(0, compact.lastIndexOf('.')),
  'ERR_JWE_INVALID',
);
bad('compact-six-parts', 'Compact form with six parts.', `${compact}.AAAA`, 'ERR_JWE_INVALID');
bad(
  'compact-encrypted-key',
  'Compact form whose second part is not empty.',
  compact.replace('..', '.AAAA.'),
  'ERR_JWE_INVALID',
);
bad(
  'compact-dots',
  'A thousand dots (tests build a million at run time).',
  '.'.repeat(1000),
  'ERR_JWE_INVALID',
);
bad(
  'kid-unknown',
  'A kid that the keyring does not have.',
  { ...base, kid: 'retired-2019' },
  'ERR_KEY_UNKNOWN',
  {
    keys: { 'kid-2024-01': KEY },
  },
);
bad(
  'missing-protected-rejected',
  'No protected member while the decryptor requires one (missingProtected: "reject").',
  rawEnvelope({ key: KEY, iv: ivFor('missing-protected-rejected'), plaintext: utf8('{}'), aad: '' }),
  'ERR_JWE_INVALID',
  { options: { missingProtected: 'reject' } },
);

/* ---------- response envelopes without "protected" ---------- */

const responseBody = '{"status":"ok","document_id":"doc-42"}';
const responses = [];
const response = (name, description, aad, expected, { tag32 = false, kid } = {}) => {
  const iv = ivFor(name);
  const { ciphertext, tag, mac } = rawSeal({ key: RESPONSE_KEY, iv, plaintext: utf8(responseBody), aad });
  const envelope = { ciphertext: b64u(ciphertext), iv: b64u(iv), tag: b64u(tag32 ? mac : tag) };
  if (kid !== undefined) envelope.kid = kid;
  responses.push({
    name,
    description,
    key: RESPONSE_KEY,
    plaintext: describePlaintext(utf8(responseBody)),
    envelope,
    expected,
  });
};
response(
  'response-rfc-empty-aad',
  'No protected member and a tag over an empty AAD, as RFC 7516 defines it.',
  '',
  { infer: { headerSource: 'none' }, rfc: { headerSource: 'none' }, reject: { code: 'ERR_JWE_INVALID' } },
);
response(
  'response-tag-over-compact-header',
  'No protected member, but the tag covers {"alg":"dir","enc":"A128CBC-HS256"} (the member was dropped after the MAC).',
  PROTECTED_COMPACT,
  {
    infer: { headerSource: 'assumed-compact' },
    rfc: { code: 'ERR_JWE_DECRYPTION_FAILED' },
    reject: { code: 'ERR_JWE_INVALID' },
  },
  { kid: 'svc-key-1' },
);
response(
  'response-tag-over-spaced-header',
  'No protected member, but the tag covers {"alg": "dir", "enc": "A128CBC-HS256"} (spaced spelling).',
  PROTECTED_SPACED,
  {
    infer: { headerSource: 'assumed-spaced' },
    rfc: { code: 'ERR_JWE_DECRYPTION_FAILED' },
    reject: { code: 'ERR_JWE_INVALID' },
  },
);
response(
  'response-32-byte-tag',
  'The documented sample shape with a 32-byte tag: the full, untruncated HMAC-SHA-256 over the compact header. Standard decryption refuses it.',
  PROTECTED_COMPACT,
  {
    infer: { code: 'ERR_JWE_DECRYPTION_FAILED' },
    rfc: { code: 'ERR_JWE_DECRYPTION_FAILED' },
    reject: { code: 'ERR_JWE_INVALID' },
  },
  { tag32: true },
);

/* ---------- self-check, then write ---------- */

for (const vector of vectors) {
  const plaintext = Buffer.from(await codec.decrypt(vector.envelope, vector.key));
  if (plaintext.toString('base64') !== vector.plaintext.base64)
    throw new Error(`vector ${vector.name} does not decrypt`);
}

const write = (file, value) => {
  writeFileSync(new URL(file, here), `${JSON.stringify(value, null, 2)}\n`);
  console.log(`wrote test-vectors/${file}`);
};
write('envelopes.json', {
  format: 'jwe-transport envelope vectors, version 1; see README.md',
  vectors,
});
write('malformed.json', {
  format: 'jwe-transport negative cases, version 1; see README.md',
  cases: malformed,
});
write('responses.json', {
  format: 'jwe-transport response envelopes without "protected", version 1; see README.md',
  responses,
});
console.log(`${vectors.length} vectors, ${malformed.length} negative cases, ${responses.length} responses`);
