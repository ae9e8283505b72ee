import { type RequestHandler, Router } from 'express';
import { WorkflowHttpError } from './errors.js';
import type { SessionStore } from './sessions.js';
import { TRANSCRIPTIONS_PATH } from './upload.js';

/**
 * Result retrieval (spec 4.6, path of this reference service): 202 while processing, then 200, or
 * 206 when some document is not a full success (field notes).
 */
export function resultRoutes(sessions: SessionStore, auth: RequestHandler): Router {
  const router = Router();
  router.get(`${TRANSCRIPTIONS_PATH}/:sessionId`, auth, (req, res, next) => {
    const session = sessions.get(String(req.params.sessionId));
    if (!session) {
      next(
        new WorkflowHttpError(
          404,
          'session.unknown',
          'ERR_SESSION_UNKNOWN',
          'No session with this id: use the transaction id of the upload.',
        ),
      );
      return;
    }
    const action = req.query.action;
    if (action !== undefined && action !== session.params.action) {
      next(
        new WorkflowHttpError(
          400,
          'session.action.mismatch',
          'ERR_ACTION_MISMATCH',
          `This session was uploaded with action ${session.params.action}.`,
        ),
      );
      return;
    }
    if (session.state === 'processing' || !session.output) {
      res.setHeader('Retry-After', '1');
      res.status(202).json({ data: { session_id: session.id, status: 'processing' } });
      return;
    }
    const partial = session.output.some((item) => item.status !== 'success');
    res.status(partial ? 206 : 200).json({
      data: {
        session_id: session.id,
        transaction_id: session.id,
        status: 'completed',
        created_at: session.createdAt,
        completed_at: session.completedAt,
        output: session.output,
      },
    });
  });
  return router;
}
