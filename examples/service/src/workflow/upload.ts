import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { type RequestHandler, Router } from 'express';
import type { AudioFileRecord } from './documents.js';
import { invalidRequest, WorkflowHttpError } from './errors.js';
import { parseSessionParams } from './params.js';
import type { SessionStore } from './sessions.js';

export const TRANSCRIPTIONS_PATH = '/voice/api/v2/transcriptions';

/** Spec 2.7: the content type comes from the file extension. */
const AUDIO_TYPES: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  mp4: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/opus',
  webm: 'audio/webm',
  flac: 'audio/flac',
  amr: 'audio/amr',
};

const uploadInvalid = (message: string) => invalidRequest('upload.invalid', message);

interface ParsedUpload {
  fields: Map<string, string>;
  files: AudioFileRecord[];
}

/** Streams a multipart upload: each file is hashed and counted as it passes, never kept. */
function readUpload(req: IncomingMessage, maxFileBytes: number): Promise<ParsedUpload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: maxFileBytes, files: 20, fields: 20 } });
    } catch {
      reject(uploadInvalid('Send the audio as multipart/form-data with one "file" part per file.'));
      return;
    }
    const fields = new Map<string, string>();
    const files: AudioFileRecord[] = [];
    const hashing: Promise<void>[] = [];
    let failure: Error | undefined;
    const fail = (error: Error) => {
      failure ??= error;
    };
    parser.on('field', (name, value) => fields.set(name, value));
    parser.on('file', (name, stream, info) => {
      const extension = /\.([A-Za-z0-9]+)$/.exec(info.filename ?? '')?.[1]?.toLowerCase();
      const contentType = extension ? AUDIO_TYPES[extension] : undefined;
      if (name !== 'file' || !info.filename || !contentType) {
        fail(
          uploadInvalid(
            `Each audio file goes in a "file" part with a file name ending in ${Object.keys(AUDIO_TYPES)
              .map((ext) => `.${ext}`)
              .join(', ')}.`,
          ),
        );
        stream.resume();
        return;
      }
      const fileName = info.filename;
      const hash = createHash('sha256');
      let size = 0;
      hashing.push(
        new Promise((done) => {
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            hash.update(chunk);
          });
          stream.on('limit', () => {
            const error = new WorkflowHttpError(
              413,
              'entity.too.large',
              'ERR_FILE_TOO_LARGE',
              `The file ${fileName} is larger than ${maxFileBytes} bytes.`,
            );
            fail(error);
          });
          stream.on('end', () => {
            files.push({
              name: fileName,
              size,
              sha256: hash.digest('hex'),
              contentType,
              declaredType: info.mimeType === 'application/octet-stream' ? undefined : info.mimeType,
            });
            done();
          });
        }),
      );
    });
    parser.on('error', () => reject(uploadInvalid('The multipart body is malformed.')));
    parser.on('close', () => {
      Promise.all(hashing).then(() => (failure ? reject(failure) : resolve({ fields, files })), reject);
    });
    req.pipe(parser);
  });
}

/** Upload (spec 4.5, path of this reference service): 202 with one entry per file. */
export function uploadRoutes(sessions: SessionStore, auth: RequestHandler, maxFileBytes: number): Router {
  const router = Router();
  router.post(TRANSCRIPTIONS_PATH, auth, async (req, res, next) => {
    try {
      const { fields, files } = await readUpload(req, maxFileBytes);
      if (files.length === 0) throw uploadInvalid('Attach at least one audio file in a "file" part.');
      const params = parseSessionParams(fields);
      const id = params.transactionId ?? `txn-${randomUUID()}`;
      if (sessions.has(id)) {
        throw new WorkflowHttpError(
          409,
          'transaction.exists',
          'ERR_TRANSACTION_EXISTS',
          `transaction_id ${id} is already in use: pick a new one.`,
        );
      }
      sessions.start(id, params, files);
      res.status(202).json(
        files.map((file) => ({
          file_name: file.name,
          transaction_id: id,
          status: 'accepted',
          size: file.size,
          sha256: file.sha256,
          content_type: file.contentType,
        })),
      );
    } catch (error) {
      next(error);
    }
  });
  return router;
}
