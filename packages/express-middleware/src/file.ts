import type { JweFile } from '@jwe-transport/server-core/node';
import type { Request } from 'express';

export type { JweFile };

declare global {
  namespace Express {
    interface Request {
      /** The uploaded file, set by `jweUpload()` / `jwe(...).upload()` (multer's shape). */
      file?: JweFile | undefined;
    }
  }
}

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
