import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { finished, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { type Response, Router } from 'express';
import { audioTypeOf } from './audio-types.js';
import type { AudioFileRecord } from './documents.js';
import { BUCKET, type PolicySigner, STORAGE_PATH } from './storage-policy.js';
import type { TransactionStore } from './transactions.js';

/** An S3-style refusal: the storage leg answers like object storage, not like the JSON API. */
class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const denied = (message: string) =>
  new StorageError(403, 'AccessDenied', `Invalid according to Policy: ${message}`);
// The literal placeholder S3 replaces with the file part's name.
const FILENAME = ['$', '{filename}'].join('');
const FIELDS_NOT_IN_POLICY = new Set(['policy', 'x-amz-signature', 'file', 'key']);
const SEGMENT = /^[^/\\\0]{1,255}$/;

function sendError(res: Response, error: StorageError): void {
  const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  res
    .status(error.status)
    .type('application/xml')
    .send(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${xmlText(error.message)}</Message></Error>\n`,
    );
}

/**
 * The most of a refused body read (and dropped) before the refusal goes out. A server that
 * answers and closes while the body is still coming sends a TCP reset, and the client loses the
 * answer in flight: it sees a network error and sends the same refused upload again.
 */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * Answers a refused upload. One of a declared size up to {@link DRAIN_LIMIT} is first read to its
 * end and dropped, so the client reads the refusal on a connection that stays open; a larger or
 * unsized one is not read: the refusal goes out at once and closes the connection.
 */
function refuse(req: IncomingMessage, res: Response, error: StorageError): void {
  const declared = Number(req.headers['content-length']);
  if (!(Number.isSafeInteger(declared) && declared <= DRAIN_LIMIT)) {
    res.setHeader('Connection', 'close');
    sendError(res, error);
    return;
  }
  req.unpipe();
  req.resume();
  // A client that goes away meanwhile gets nothing: there is no one left to answer.
  finished(req, (gone) => {
    if (!gone && !res.destroyed) sendError(res, error);
  });
}

/** Checks the form fields against their signed policy and answers the object key to write. */
function authorize(
  signer: PolicySigner,
  fields: Map<string, string>,
  fileName: string,
  now: number,
): { key: string; maxBytes: number; minBytes: number } {
  const rules = signer.verify(fields.get('policy'), fields.get('x-amz-signature'));
  if (!rules) throw denied('the policy or its signature is missing or does not match.');
  if (now >= rules.expiration) throw denied('Policy expired. Ask the API for a new upload grant.');
  for (const [name, expected] of Object.entries(rules.exact)) {
    const actual = name === 'bucket' ? BUCKET : fields.get(name);
    if (actual !== expected) throw denied(`Policy Condition failed: ["eq", "$${name}", "${expected}"].`);
  }
  for (const name of fields.keys()) {
    if (!FIELDS_NOT_IN_POLICY.has(name) && !(name in rules.exact))
      throw denied(`Extra input fields: ${name}.`);
  }
  const template = fields.get('key');
  if (template === undefined) throw denied('the form has no "key" field.');
  if (!SEGMENT.test(fileName) || fileName === '.' || fileName === '..')
    throw new StorageError(400, 'InvalidArgument', 'The file part needs a plain file name (no "/", "\\").');
  const key = template.replaceAll(FILENAME, fileName);
  const rest = key.slice(rules.keyPrefix.length);
  if (!key.startsWith(rules.keyPrefix) || !SEGMENT.test(rest) || rest === '.' || rest === '..')
    throw denied(`Policy Condition failed: ["starts-with", "$key", "${rules.keyPrefix}"].`);
  return { key, maxBytes: rules.maxBytes, minBytes: rules.minBytes };
}

/** Counts and hashes the bytes that pass, and fails the pipeline once they pass `max`. */
function meter(max: number) {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > max) {
        done(
          new StorageError(
            400,
            'EntityTooLarge',
            `Your proposed upload exceeds the maximum allowed size (${max} bytes).`,
          ),
        );
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ size, sha256: hash.digest('hex') }) };
}

/**
 * docs/wire-format.md, "Step 2: storage upload": a browser-style presigned POST. The fields come
 * first and are checked against their signed policy before a byte of the file is written; the file streams to a private
 * partial file that becomes the object only when it arrived whole (answer 204).
 */
export function storageRoutes(
  transactions: TransactionStore,
  signer: PolicySigner,
  options: { storageDir: string; now: () => number; rename?: (from: string, to: string) => Promise<void> },
): Router {
  const partialDir = join(options.storageDir, '.partial');
  const router = Router();
  router.post(`${STORAGE_PATH}/`, (req, res) => {
    receive(req).then(
      () => res.status(204).end(),
      (error: unknown) => {
        if (res.headersSent || res.destroyed) return;
        refuse(
          req,
          res,
          error instanceof StorageError
            ? error
            : new StorageError(
                400,
                'MalformedPOSTRequest',
                'The body of your POST request is not well-formed multipart/form-data.',
              ),
        );
      },
    );
  });

  async function receive(req: IncomingMessage): Promise<void> {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fields: 30, fieldSize: 16 * 1024, parts: 32 },
      });
    } catch {
      throw new StorageError(
        400,
        'MalformedPOSTRequest',
        'Send multipart/form-data with the granted fields, then the file.',
      );
    }
    await mkdir(partialDir, { recursive: true, mode: 0o700 });
    const fields = new Map<string, string>();
    const stored = new Promise<void>((resolve, reject) => {
      let sawFile = false;
      parser.on('field', (name, value) => {
        if (!sawFile) fields.set(name.toLowerCase(), value);
      });
      parser.on('file', (name, file, info) => {
        if (name !== 'file' || sawFile) {
          file.resume();
          return;
        }
        sawFile = true;
        store(fields, file, info.filename ?? '').then(resolve, reject);
      });
      parser.on('error', () =>
        reject(new StorageError(400, 'MalformedPOSTRequest', 'The multipart body is malformed.')),
      );
      parser.on('close', () => {
        if (!sawFile)
          reject(
            new StorageError(400, 'InvalidArgument', 'POST requires exactly one file upload per request.'),
          );
      });
      // A client that goes away mid-file: the file stream must fail so the partial file goes.
      req.on('close', () => {
        if (!req.complete)
          parser.destroy(new StorageError(400, 'IncompleteBody', 'The request ended early.'));
      });
    });
    req.pipe(parser);
    await stored;
  }

  async function store(
    fields: Map<string, string>,
    file: NodeJS.ReadableStream,
    fileName: string,
  ): Promise<void> {
    const { key, maxBytes, minBytes } = authorize(signer, fields, fileName, options.now());
    const [folder] = key.split('/');
    const transaction = transactions.get(fields.get('x-amz-meta-txn-id') ?? '');
    if (!transaction || transaction.folder !== `${folder}/`)
      throw denied('the transaction of this grant is unknown.');
    // A grant is for audio of a transaction not yet started: after start its folder is closed.
    const closed = () => transaction.state !== 'granted';
    if (closed())
      throw denied('the transaction of this grant was started already; its folder takes no more files.');
    const partial = join(partialDir, randomBytes(16).toString('hex'));
    const counted = meter(maxBytes);
    try {
      await pipeline(file, counted.stream, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      const { size, sha256 } = counted.result();
      if (size < minBytes)
        throw new StorageError(
          400,
          'EntityTooSmall',
          `Your proposed upload is smaller than the minimum allowed size (${minBytes} bytes).`,
        );
      const target = join(options.storageDir, ...key.split('/'));
      await mkdir(join(options.storageDir, folder!), { recursive: true, mode: 0o700 });
      // Started while this file was arriving: it is not stored. Checked right before the rename,
      // the last await before the record is kept.
      if (closed()) throw denied('the transaction of this grant was started while the file arrived.');
      const name = key.slice(transaction.folder.length);
      // The rename is not atomic with start: until the record is kept, start sees this name as
      // not uploaded yet (rather than a file about to be replaced under it).
      const stored = transactions.storing(transaction, name);
      try {
        await (options.rename ?? rename)(partial, target);
      } finally {
        stored();
      }
      // Started (without this name) while it moved: a started folder takes no more files.
      if (closed()) {
        transaction.files.delete(name);
        transaction.objects.delete(name);
        await rm(target, { force: true });
        throw denied('the transaction of this grant was started while the file arrived.');
      }
      const audioType = audioTypeOf(name);
      const record: AudioFileRecord = {
        name,
        size,
        sha256,
        contentType: audioType ?? 'application/octet-stream',
      };
      // A second upload of a name replaces the first, as object storage does.
      if (audioType === undefined) {
        transaction.files.delete(name);
        transaction.objects.set(name, record);
      } else {
        transaction.objects.delete(name);
        transaction.files.set(name, record);
      }
    } catch (error) {
      file.resume();
      await rm(partial, { force: true });
      throw error;
    }
  }

  return router;
}
