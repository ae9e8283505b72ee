// The work of the runtimes suite (70-runtimes.mjs), the same in every runtime: ours and npm jose
// doing the same thing, 1 KiB of JSON and a 1 MiB file, each direction, in interleaved rounds. It
// imports nothing: the runner hands it the codec build, jose, and the runtime's standard base64
// (which jose's side needs for the file payload and ours does itself).

const SHARED = 'bench-runtime-16';
const PROTECTED = { alg: 'dir', enc: 'A128CBC-HS256' };
const PINNED = { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A128CBC-HS256'] };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Calls `fn` for about `ms` milliseconds (after a short warm-up) and returns calls per second. */
async function rate(fn, ms) {
  const warmUntil = performance.now() + Math.min(100, ms / 4);
  while (performance.now() < warmUntil) await fn();
  let count = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    await fn();
    count++;
    now = performance.now();
  }
  return count / ((now - start) / 1000);
}

/** Interleaved rounds, the order swapped each round; the median of the rounds' ours / jose rates. */
async function compare(ours, theirs, { rounds, ms }) {
  const ratios = [];
  const oursRates = [];
  const joseRates = [];
  for (let round = 0; round < rounds; round++) {
    let a;
    let b;
    if (round % 2 === 0) {
      a = await rate(ours, ms);
      b = await rate(theirs, ms);
    } else {
      b = await rate(theirs, ms);
      a = await rate(ours, ms);
    }
    oursRates.push(a);
    joseRates.push(b);
    ratios.push(a / b);
  }
  return {
    ours: median(oursRates),
    jose: median(joseRates),
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
    rounds,
  };
}

/**
 * Runs the four comparisons; `base64` is `{ encode(bytes): string, decode(text): Uint8Array }`
 * (standard alphabet, padded). Checks first that each side opens the other's envelopes.
 */
export async function compareWithJose({ codec, jose, base64, quick = false }) {
  const key = codec.deriveKey(SHARED);
  const utf8 = new TextEncoder();
  const fromUtf8 = new TextDecoder();
  const value = { note: 'x'.repeat(1000), n: 1 };
  const json = JSON.stringify(value);
  const file = new Uint8Array(1024 * 1024);
  for (let i = 0; i < file.length; i++) file[i] = (i * 2654435761) >>> 24;

  const joseSeal = async (bytes) =>
    new jose.FlattenedEncrypt(bytes).setProtectedHeader(PROTECTED).encrypt(key);
  const joseOpen = async (text) => (await jose.flattenedDecrypt(JSON.parse(text), key, PINNED)).plaintext;
  const joseFilePayload = (bytes) => utf8.encode(`{"file":"${base64.encode(bytes)}"}`);

  const oursJsonText = JSON.stringify(await codec.encryptJson(value, SHARED));
  const joseJsonText = JSON.stringify(await joseSeal(utf8.encode(json)));
  const oursFileText = JSON.stringify(await codec.encryptFile(file, SHARED));
  const joseFileText = JSON.stringify(await joseSeal(joseFilePayload(file)));
  // Each side opens the other's envelopes: the same work on the same wire format.
  const sameFile = (bytes) => bytes.length === file.length && bytes.every((byte, i) => byte === file[i]);
  if (JSON.stringify(await codec.decryptJson(joseJsonText, SHARED)) !== json)
    throw new Error('ours ≠ jose (JSON)');
  if (fromUtf8.decode(await joseOpen(oursJsonText)) !== json) throw new Error('jose ≠ ours (JSON)');
  if (!sameFile(await codec.decryptFile(joseFileText, SHARED))) throw new Error('ours ≠ jose (file)');
  const joseFile = JSON.parse(fromUtf8.decode(await joseOpen(oursFileText))).file;
  if (!sameFile(base64.decode(joseFile))) throw new Error('jose ≠ ours (file)');

  const small = { rounds: quick ? 3 : 7, ms: quick ? 100 : 250 };
  const large = { rounds: quick ? 3 : 5, ms: quick ? 200 : 500 };
  return [
    {
      what: '1 KiB JSON encrypt',
      ...(await compare(
        () => codec.encryptJson(value, SHARED),
        () => joseSeal(utf8.encode(JSON.stringify(value))),
        small,
      )),
    },
    {
      what: '1 KiB JSON decrypt',
      ...(await compare(
        () => codec.decryptJson(oursJsonText, SHARED),
        async () => JSON.parse(fromUtf8.decode(await joseOpen(oursJsonText))),
        small,
      )),
    },
    {
      what: '1 MiB file encrypt',
      ...(await compare(
        () => codec.encryptFile(file, SHARED),
        () => joseSeal(joseFilePayload(file)),
        large,
      )),
    },
    {
      what: '1 MiB file decrypt',
      ...(await compare(
        () => codec.decryptFile(oursFileText, SHARED),
        async () => base64.decode(JSON.parse(fromUtf8.decode(await joseOpen(oursFileText))).file),
        large,
      )),
    },
  ];
}
