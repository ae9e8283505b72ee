import { JweServer } from '../jwe-server.js';
import { errorResponse, sealResponse } from '../web.js';
import type { WithJweOptions } from '../with-jwe.js';
import { receiveUpload, type UploadedFile, type UploadOptions } from './receive-upload.js';

export interface WithJweUploadOptions extends WithJweOptions, UploadOptions {}

/**
 * `withJwe` for upload routes: the handler runs only once the file is stored and, for an
 * encrypted upload, authenticated; it gets the file as its second argument. Answers to
 * encrypted uploads are sealed.
 */
export function withJweUpload<Rest extends unknown[]>(
  handler: (request: Request, file: UploadedFile, ...rest: Rest) => Response | Promise<Response>,
  options: WithJweUploadOptions,
): (request: Request, ...rest: Rest) => Promise<Response> {
  const { dest, limit, maxSpill, fieldName, onError, ...serverOptions } = options;
  const server = new JweServer({ ...serverOptions, limit: limit ?? '10mb' });
  const upload: UploadOptions = {
    ...(dest === undefined ? {} : { dest }),
    ...(limit === undefined ? {} : { limit }),
  };
  if (maxSpill !== undefined) upload.maxSpill = maxSpill;
  if (fieldName !== undefined) upload.fieldName = fieldName;
  const report = onError ?? ((error: unknown) => console.error(error));
  return async (request, ...rest) => {
    let received: Awaited<ReturnType<typeof receiveUpload>>;
    try {
      received = await receiveUpload(server, request, upload);
    } catch (error) {
      return errorResponse(server, error);
    }
    try {
      return await sealResponse(server, await handler(request, received.file, ...rest), received);
    } catch (error) {
      const answer = await errorResponse(server, error, received);
      if (answer.status >= 500) report(error, request);
      return answer;
    }
  };
}
