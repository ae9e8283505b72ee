// The storage half of the documented-wire test service: a presigned-POST endpoint in the style of
// object storage. It checks the signed policy (expiry, key prefix, size range), that every granted
// field came before the file, streams the file (hashing it, never holding it) and answers 204.
import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';

const FILENAME_PLACEHOLDER = ['$', '{filename}'].join('');

export interface StoredFile {
  key: string;
  size: number;
  sha256: string;
  contentType: string;
  /** Form field names in the order they arrived, the file last. */
  order: string[];
}

export interface Policy {
  expiration: string;
  conditions: unknown[];
}

export interface StorageState {
  secret: string;
  clock: { offsetMs: number };
  files: Map<string, StoredFile>;
  /** Content-Length header of each storage POST, in order. */
  lengths: number[];
}

function xmlError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/xml', connection: 'close' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

export function signPolicy(policy: Policy, secret: string): { policy: string; signature: string } {
  const encoded = Buffer.from(JSON.stringify(policy)).toString('base64');
  return { policy: encoded, signature: createHmac('sha256', secret).update(encoded).digest('hex') };
}

function condition(policy: Policy, name: string): unknown[] | undefined {
  return policy.conditions.find((item) => Array.isArray(item) && item[1] === `$${name}`) as
    | unknown[]
    | undefined;
}

export function handleStoragePost(state: StorageState, req: IncomingMessage, res: ServerResponse): void {
  const length = Number(req.headers['content-length']);
  if (!Number.isSafeInteger(length)) {
    xmlError(res, 411, 'MissingContentLength', 'Content-Length required');
    return;
  }
  state.lengths.push(length);
  const fields = new Map<string, string>();
  const order: string[] = [];
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { fileSize: Number.MAX_SAFE_INTEGER } });
  } catch {
    xmlError(res, 400, 'MalformedPOSTRequest', 'not multipart');
    return;
  }
  let finished = false;
  const fail = (status: number, code: string, message: string) => {
    if (finished) return;
    finished = true;
    req.unpipe(parser);
    req.resume();
    xmlError(res, status, code, message);
  };
  parser.on('field', (name, value) => {
    order.push(name);
    fields.set(name, value);
  });
  parser.on('file', (name, stream, info) => {
    order.push(name);
    if (name !== 'file') return fail(400, 'InvalidArgument', 'unexpected file field');
    const policyText = fields.get('policy') ?? '';
    const expected = createHmac('sha256', state.secret).update(policyText).digest('hex');
    if (fields.get('x-amz-signature') !== expected)
      return fail(403, 'SignatureDoesNotMatch', 'bad signature');
    const policy = JSON.parse(Buffer.from(policyText, 'base64').toString('utf8')) as Policy;
    if (Date.parse(policy.expiration) <= Date.now() + state.clock.offsetMs) {
      return fail(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
    }
    const prefix = String(condition(policy, 'key')?.[2] ?? '');
    // The storage substitutes the literal `${filename}` placeholder of the granted key.
    const key = (fields.get('key') ?? '').replace(FILENAME_PLACEHOLDER, () => info.filename ?? '');
    if (!key.startsWith(prefix)) return fail(403, 'AccessDenied', 'key outside the granted prefix');
    const range = policy.conditions.find(
      (item) => Array.isArray(item) && item[0] === 'content-length-range',
    ) as [string, number, number] | undefined;
    const hash = createHash('sha256');
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      hash.update(chunk);
    });
    stream.on('end', () => {
      if (finished) return;
      if (range && (size < range[1] || size > range[2]))
        return fail(400, 'EntityTooLarge', 'size outside range');
      state.files.set(key, {
        key,
        size,
        sha256: hash.digest('hex'),
        contentType: info.mimeType,
        order: [...order],
      });
    });
  });
  parser.on('close', () => {
    if (finished) return;
    finished = true;
    if (!order.includes('file')) return xmlError(res, 400, 'InvalidArgument', 'no file');
    res.writeHead(204).end();
  });
  parser.on('error', () => fail(400, 'MalformedPOSTRequest', 'bad multipart'));
  req.pipe(parser);
}
