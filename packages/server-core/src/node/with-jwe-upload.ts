import { JweServer } from '../jwe-server.js';
import { responder, type WithJweOptions } from '../with-jwe.js';
import type { JweFile } from './jwe-file.js';
import { DEFAULT_UPLOAD_LIMIT } from './receive-file.js';
import { receiveUpload, type UploadOptions } from './receive-upload.js';

export interface WithJweUploadOptions extends WithJweOptions, UploadOptions {}

/**
 * `withJwe` for upload routes: the handler runs only once the file is stored and, for an
 * encrypted upload, authenticated; it gets the file as its second argument. Answers to
 * encrypted uploads are sealed, errors included.
 */
export function withJweUpload<Rest extends unknown[]>(
  handler: (request: Request, file: JweFile, ...rest: Rest) => Response | Promise<Response>,
  options: WithJweUploadOptions,
): (request: Request, ...rest: Rest) => Promise<Response> {
  const { dest, limit, maxSpill, fieldName, onError, logger, onReject, ...serverOptions } = options;
  const server = new JweServer({ ...serverOptions, limit: limit ?? DEFAULT_UPLOAD_LIMIT });
  const upload: UploadOptions = {
    ...(dest === undefined ? {} : { dest }),
    ...(limit === undefined ? {} : { limit }),
    ...(maxSpill === undefined ? {} : { maxSpill }),
    ...(fieldName === undefined ? {} : { fieldName }),
  };
  const { answer, refuse } = responder({
    keys: serverOptions.keys,
    ...(onError === undefined ? {} : { onError }),
    ...(logger === undefined ? {} : { logger }),
    ...(onReject === undefined ? {} : { onReject }),
  });
  return async (request, ...rest) => {
    let received: Awaited<ReturnType<typeof receiveUpload>>;
    try {
      received = await receiveUpload(server, request, upload);
    } catch (error) {
      return refuse(server, error, request);
    }
    try {
      return await answer(server, await handler(request, received.file, ...rest), request, received);
    } catch (error) {
      return refuse(server, error, request, received);
    }
  };
}
