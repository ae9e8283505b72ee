import type { Request } from 'express';

/** The uploaded file, shaped like multer's `req.file`. */
export interface JweFile {
  /** The form field (multipart) or envelope member (`file`) it came in. */
  fieldname: string;
  /** The client's file name; multipart only, since the encrypted form carries none. */
  originalname?: string;
  /** The multipart part's transfer encoding; multipart only. */
  encoding?: string;
  /** The type the client declared, or the one the first bytes announce when it declared none. */
  mimetype: string;
  size: number;
  /** The bytes, with memory storage (no `dest`). */
  buffer?: Buffer;
  /** With disk storage: the folder, the file's name in it, and the full path. */
  destination?: string;
  filename?: string;
  path?: string;
}

declare global {
  namespace Express {
    interface Request {
      /** The uploaded file, set by `jweUpload()` / `jwe(...).upload()` (multer's shape). */
      file?: JweFile | undefined;
    }
  }
}

/** Kept for code written before `req.file` was declared on Express's `Request`. */
export type RequestWithFile = Request & { file?: JweFile };

/** The file an upload handler stored for this request; throws when the route has no upload handler. */
export function uploadedFile(req: Request): JweFile {
  const file = req.file;
  if (!file) {
    throw new Error(
      'No uploaded file on this request: mount jweUpload() (or jwe(...).upload()) on the route first.',
    );
  }
  return file;
}

export function setUploadedFile(req: Request, file: JweFile): void {
  req.file = file;
}
