import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { type RequestHandler, Router } from 'express';
import { WorkflowHttpError } from './errors.js';
import { type PolicySigner, STORAGE_PATH } from './storage-policy.js';
import { type TransactionStore, TXN_ID } from './transactions.js';

export const GRANT_PATH = '/v1/file-upload';
export const GRANT_ACTION = 'ekascribe-v2';

/** The storage URL as the caller reached this service (so a grant works through any host name it used). */
export const storageUrl = (req: Request) => `${req.protocol}://${req.get('host')}${STORAGE_PATH}/`;

/**
 * docs/wire-format.md, "Step 1": `POST /v1/file-upload?txn_id=&action=ekascribe-v2` answers a presigned
 * POST grant for the transaction's folder. The first grant makes the transaction the caller's.
 * `action` may be left out (its one value is the default), and so may `txn_id`: the service then
 * assigns one and returns it, as the service's automation example expects.
 */
export function grantRoutes(
  transactions: TransactionStore,
  signer: PolicySigner,
  auth: RequestHandler,
  options: { now: () => number; grantSeconds: number; maxFileBytes: number },
): Router {
  const router = Router();
  router.post(GRANT_PATH, auth, (req, res, next) => {
    const { action } = req.query;
    const txnId = req.query.txn_id === undefined ? `txn-${randomUUID()}` : req.query.txn_id;
    if (action !== undefined && action !== GRANT_ACTION) {
      next(
        new WorkflowHttpError(
          400,
          'grant.invalid',
          'ERR_INVALID_REQUEST',
          `action must be "${GRANT_ACTION}".`,
        ),
      );
      return;
    }
    if (typeof txnId !== 'string' || !TXN_ID.test(txnId)) {
      next(
        new WorkflowHttpError(
          400,
          'grant.invalid',
          'ERR_INVALID_REQUEST',
          'txn_id must be 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit.',
        ),
      );
      return;
    }
    const clientId = res.locals.clientId as string;
    const found = transactions.lookup(txnId, clientId);
    if (found.kind === 'foreign') {
      next(
        new WorkflowHttpError(
          404,
          'transaction.not_found',
          'ERR_NOT_FOUND',
          'No such transaction for this client.',
        ),
      );
      return;
    }
    const transaction = found.kind === 'own' ? found.transaction : transactions.create(txnId, clientId);
    if (transaction.state !== 'granted') {
      next(
        new WorkflowHttpError(
          409,
          'transaction.started',
          'ERR_TRANSACTION_STARTED',
          `Transaction ${txnId} was started already: use a new txn_id for more audio.`,
        ),
      );
      return;
    }
    const fields = signer.grant({
      folder: transaction.folder,
      txnId,
      now: options.now(),
      seconds: options.grantSeconds,
      maxBytes: options.maxFileBytes,
    });
    res.status(200).json({
      uploadData: { url: storageUrl(req), fields },
      folderPath: transaction.folder,
      txn_id: txnId,
    });
  });
  return router;
}
