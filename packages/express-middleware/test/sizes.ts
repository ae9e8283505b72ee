import { request } from 'node:http';
import { encryptFile } from '@jwe-transport/codec';

/** The byte length of the standard (padded) or URL (unpadded) base64 of `n` bytes. */
const base64Length = (n: number) => 4 * Math.ceil(n / 3);
const base64UrlLength = (n: number) => Math.ceil((4 * n) / 3);
/** `{"file":"<base64>"}` encrypted with AES-CBC: PKCS#7 always adds 1 to 16 bytes. */
const ciphertextLength = (fileBytes: number) => {
  const plaintext = '{"file":"'.length + base64Length(fileBytes) + '"}'.length;
  return 16 * (Math.floor(plaintext / 16) + 1);
};

/**
 * The size of a file whose encrypted envelope (under `kid`) is as close to `limit` bytes as
 * possible without passing it; `over` gives the smallest file whose envelope passes it. The
 * envelope's framing is measured once on a real envelope from the codec.
 */
export async function fileSizeForEnvelope(limit: number, key: string, kid: string, over = false) {
  const empty = JSON.stringify(await encryptFile(new Uint8Array(0), key, { kid }));
  const framing = empty.length - base64UrlLength(ciphertextLength(0));
  const envelopeLength = (n: number) => framing + base64UrlLength(ciphertextLength(n));
  let low = 0;
  let high = limit;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (envelopeLength(mid) <= limit) low = mid;
    else high = mid - 1;
  }
  return over ? low + 1 : low;
}

/** A multipart/form-data body of exactly `total` bytes with one file part, built by hand. */
export function multipartOfSize(total: number, field = 'file') {
  const boundary = 'size-test-boundary-7d3f';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="f.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const file = Buffer.alloc(total - head.length - tail.length);
  for (let i = 0; i < file.length; i += 4096) file[i] = (i / 4096) & 0xff;
  return {
    body: Buffer.concat([head, file, tail]),
    file,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export interface Answer {
  status: number;
  text: string;
}

/**
 * POSTs `body` over a real socket, in 64 KiB writes that respect back-pressure, and resolves with
 * the answer. `chunked` leaves out Content-Length so that the server must count the bytes itself;
 * writing stops as soon as an answer arrives (a server refusing a body stops reading it).
 */
export function post(
  url: string,
  headers: Record<string, string | string[]>,
  body: Buffer,
  { chunked = false } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: chunked
        ? { ...headers, 'transfer-encoding': 'chunked' }
        : { ...headers, 'content-length': String(body.length) },
    });
    let answered = false;
    let offset = 0;
    const pump = () => {
      while (!answered && offset < body.length) {
        const piece = body.subarray(offset, offset + 64 * 1024);
        offset += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    req.on('response', async (res) => {
      answered = true;
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode ?? 0, text });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    pump();
  });
}
