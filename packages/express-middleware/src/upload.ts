import { pipeline } from 'node:stream';
import { decryptDetailed, decryptFileStream } from '@jwe-transport/codec';
import { isStrictBase64, parseLimit, recordingResolver, type SizeLimit } from '@jwe-transport/server-core';
import type { Request, RequestHandler, Response } from 'express';
import { hasBody, limitedBody, readBody } from './body-stream.js';
import { isEncryptedRequest, isMultipart } from './content-type.js';
import { encryptionRequired, isJweHttpError, mountOrder, uploadInvalid } from './errors.js';
import { type JweFile, setUploadedFile } from './file.js';
import { parseJsonBody } from './json-body.js';
import { runStep } from './middleware.js';
import { receiveMultipart } from './multipart.js';
import { type JweOptions, type ResolvedOptions, resolveOptions } from './options.js';
import {
  bodyAlreadyRead,
  markBodyRead,
  recordEncryptedRequest,
  recordPlainRequest,
} from './request-state.js';
import { SNIFF_BYTES } from './sniff.js';
import { SpillGuard } from './spill-guard.js';
import { chooseMimeType, newUploadPath, readHead, writeUpload } from './storage.js';

export const DEFAULT_UPLOAD_LIMIT = '10mb';

export interface JweUploadOptions extends Omit<JweOptions, 'plainJson'> {
  /** The multipart field (and envelope member) that holds the file. Default `'file'`. */
  fieldName?: string;
  /**
   * Folder for uploaded files (disk storage: `req.file.path`). Without it files are kept in
   * memory (`req.file.buffer`), which suits small files only.
   */
  dest?: string;
  /**
   * With `dest`: the most ciphertext kept in a temporary file for an envelope whose `kid`,
   * `protected` or `iv` come after `ciphertext` (then the key is known only at the end). Bytes or
   * `'50mb'`; default the route's `limit`. Envelopes that put them first stream without a spill
   * (the codec's encoders currently write `kid` last, so their uploads do spill).
   */
  maxSpill?: SizeLimit;
}

interface UploadSettings extends ResolvedOptions {
  fieldName: string;
  dest: string | undefined;
  maxSpill: number;
}

const payloadShape = (settings: UploadSettings) =>
  `The decrypted body must be {"${settings.fieldName}": "<standard base64 of the file>"}.`;

async function fileFromBytes(bytes: Buffer, settings: UploadSettings): Promise<JweFile> {
  const described = {
    fieldname: settings.fieldName,
    mimetype: chooseMimeType(undefined, bytes.subarray(0, SNIFF_BYTES)),
    size: bytes.length,
  };
  if (settings.dest === undefined) return { ...described, buffer: bytes };
  return { ...described, ...(await writeUpload(settings.dest, bytes)) };
}

/** The file inside a decrypted payload `{"file": "<standard base64>"}` (spec 2.3). */
function fileBytes(payload: unknown, settings: UploadSettings): Buffer {
  const text = (payload as Record<string, unknown> | null | undefined)?.[settings.fieldName];
  if (typeof text !== 'string' || !isStrictBase64(text)) throw uploadInvalid(payloadShape(settings));
  return Buffer.from(text, 'base64');
}

/**
 * Disk storage: the envelope streams through the codec's decoder straight into the new file, in
 * constant memory. The decoder resolves only after the tag verifies and removes the file on any
 * failure, so the route handler never sees unauthenticated bytes.
 */
async function receiveEncryptedToDisk(
  req: Request,
  res: Response,
  settings: UploadSettings,
  dest: string,
): Promise<JweFile> {
  const target = newUploadPath(dest);
  const recorder = recordingResolver(settings.resolver);
  const envelope = new SpillGuard(settings.maxSpill, settings.resolver);
  // pipeline, not pipe: a refused or abandoned body must fail the guard the codec reads from.
  pipeline(limitedBody(req, settings.limit, settings.timeout), envelope, () => {});
  const result = await decryptFileStream(envelope, recorder.resolve, {
    to: target.path,
    missingProtected: settings.missingProtected,
    spillDir: dest,
  });
  recordEncryptedRequest(req, res, settings, result, recorder);
  return {
    fieldname: settings.fieldName,
    mimetype: chooseMimeType(undefined, await readHead(target.path)),
    size: result.bytes,
    ...target,
  };
}

async function receiveEncrypted(req: Request, res: Response, settings: UploadSettings): Promise<JweFile> {
  if (settings.dest !== undefined) return receiveEncryptedToDisk(req, res, settings, settings.dest);
  const envelope = await readBody(req, settings.limit, settings.timeout);
  const recorder = recordingResolver(settings.resolver);
  const result = await decryptDetailed(envelope, recorder.resolve, {
    missingProtected: settings.missingProtected,
  });
  // Authenticated: from here on even the error answers go out encrypted.
  recordEncryptedRequest(req, res, settings, result, recorder);
  let payload: unknown;
  try {
    payload = parseJsonBody(result.plaintext, 'The decrypted body', {
      strict: true,
      members: settings.strictJson,
    });
  } catch (error) {
    throw isJweHttpError(error) && error.type === 'entity.parse.failed'
      ? uploadInvalid(payloadShape(settings))
      : error;
  }
  return fileFromBytes(fileBytes(payload, settings), settings);
}

async function receive(req: Request, res: Response, settings: UploadSettings): Promise<void> {
  if (isEncryptedRequest(req)) {
    if (bodyAlreadyRead(req)) {
      // An app-level jwe() took the (small) envelope apart already; anything else read it blind.
      if (!req.jwe?.encrypted) throw mountOrder('upload()');
      setUploadedFile(req, await fileFromBytes(fileBytes(req.body, settings), settings));
      return;
    }
    if (!hasBody(req)) throw uploadInvalid('The encrypted upload has no body.');
    setUploadedFile(req, await receiveEncrypted(req, res, settings));
    markBodyRead(req, {});
    return;
  }
  if (settings.requireEncryption) throw encryptionRequired();
  if (!req.jwe) await recordPlainRequest(req, res, settings);
  if (!isMultipart(req) || bodyAlreadyRead(req)) {
    throw uploadInvalid(
      `Send the file as multipart/form-data in the field "${settings.fieldName}", or as an encrypted ` +
        `{"${settings.fieldName}": "<base64>"} envelope with "X-Encryption: JWE".`,
    );
  }
  const { file, fields } = await receiveMultipart(req, settings);
  setUploadedFile(req, file);
  markBodyRead(req, fields);
}

/**
 * A per-route handler for file endpoints (spec 4.3). It accepts a plain `multipart/form-data`
 * upload with the file in `fieldName`, or an encrypted `{"file": "<base64>"}` envelope, and gives
 * the next handler the same multer-style `req.file` for both. Mount it before any app-level body
 * parser sees the route, or with a `limit` that suits files.
 */
export function jweUpload(options: JweUploadOptions): RequestHandler {
  const resolved = resolveOptions({ ...options, plainJson: 'ignore' }, DEFAULT_UPLOAD_LIMIT);
  const fieldName = options.fieldName ?? 'file';
  if (typeof fieldName !== 'string' || fieldName === '')
    throw new TypeError('jweUpload: "fieldName" must be a non-empty string.');
  const maxSpill =
    options.maxSpill === undefined ? resolved.limit : parseLimit(options.maxSpill, 'jweUpload: "maxSpill"');
  const settings: UploadSettings = { ...resolved, fieldName, dest: options.dest, maxSpill };
  return runStep(async (req, res) => {
    if (req.file) return;
    if (resolved.responses === 'auto') res.vary('X-Encryption');
    await receive(req, res, settings);
  });
}
