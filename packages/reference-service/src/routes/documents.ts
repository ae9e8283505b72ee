import { uploadedFile } from '@jwe-transport/express-middleware';
import type { RequestHandler } from 'express';
import { Router } from 'express';
import type { DocumentStore } from '../document-store.js';
import { validationFailed } from '../validation.js';

/** Field notes: the `task` query parameter some document tasks need. */
export const TASKS = ['smart', 'pii', 'classification'] as const;

function taskOf(query: unknown): string | null {
  const task = (query as Record<string, unknown>).task;
  if (task === undefined) return null;
  if (typeof task !== 'string' || !(TASKS as readonly string[]).includes(task)) {
    throw validationFailed(`"task" must be one of ${TASKS.join(', ')}, or absent.`);
  }
  return task;
}

/** Spec 4.3: document upload, plain multipart or encrypted `{"file": base64}`; answers a document id. */
export function documentRoutes(upload: RequestHandler, store: DocumentStore): Router {
  const router = Router();
  // The query is checked before the upload is read, so a wrong task costs no upload.
  const checkTask: RequestHandler = (req, _res, next) => {
    try {
      taskOf(req.query);
      next();
    } catch (error) {
      next(error);
    }
  };
  router.post('/mr/api/v2/docs', checkTask, upload, async (req, res, next) => {
    try {
      const record = await store.adopt(uploadedFile(req), {
        task: taskOf(req.query),
        encrypted: req.jwe?.encrypted === true,
        owner: res.locals.clientId as string,
      });
      res.json(record);
    } catch (error) {
      next(error);
    }
  });
  router.get('/mr/api/v2/docs/:id', (req, res) => {
    const record = store.get(String(req.params.id), res.locals.clientId as string);
    if (record) res.json(record);
    else
      res
        .status(404)
        .json({ error: { type: 'not.found', code: 'ERR_NOT_FOUND', message: 'No document with this id.' } });
  });
  return router;
}
