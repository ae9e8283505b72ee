import { type RequestHandler, type Response, Router } from 'express';
import { AUDIO_EXTENSIONS, audioTypeOf } from './audio-types.js';
import { fileNameOf, folderLocations } from './batch-location.js';
import { storageUrl } from './grant-route.js';
import { type Detail, parseStartRequest } from './start-request.js';
import type { Transaction, TransactionStore } from './transactions.js';

export const START_PATH = '/voice/api/v2/transaction/init/:txnId';
export const STATUS_PATH = '/voice/api/v3/status/:txnId';

const notFound = (res: Response, id: string) =>
  res.status(404).json({ error: { code: 'not_found', msg: `No transaction ${id} for this client.` } });

const unprocessable = (res: Response, details: Detail[]) => res.status(422).json({ details });

/** What each named file must satisfy at start: uploaded to this transaction's folder, with an audio extension. */
function fileDetails(
  transaction: Transaction,
  names: (string | undefined)[],
  isStoring: (name: string) => boolean,
): Detail[] {
  const details: Detail[] = [];
  names.forEach((name, index) => {
    if (name === undefined)
      details.push({
        loc: ['body', 'client_generated_files', index],
        msg: `must be a file name, or the URL of a file in ${transaction.folder}`,
        type: 'value_error',
      });
    else if (names.indexOf(name) !== index)
      details.push({
        loc: ['body', 'client_generated_files', index],
        msg: `${name} is listed twice`,
        type: 'value_error',
      });
    else if (transaction.objects.has(name))
      details.push({
        loc: ['body', 'client_generated_files', index],
        msg: `${name} is not audio: use one of ${AUDIO_EXTENSIONS.join(', ')}`,
        type: 'value_error.file_type',
      });
    else if (isStoring(name))
      details.push({
        loc: ['body', 'client_generated_files', index],
        msg: `${name} is still being stored: start once its upload has been answered`,
        type: 'value_error.file_missing',
      });
    else if (!transaction.files.has(name))
      details.push({
        loc: ['body', 'client_generated_files', index],
        msg: `${name} was not uploaded to ${transaction.folder}`,
        type: 'value_error.file_missing',
      });
    else if (audioTypeOf(name) === undefined)
      details.push({
        loc: ['body', 'client_generated_files', index],
        msg: `${name} is not audio: use one of ${AUDIO_EXTENSIONS.join(', ')}`,
        type: 'value_error.file_type',
      });
  });
  return details;
}

/**
 * docs/wire-format.md, "Step 3: start" and "Step 4: results": start (`201`, `409` already
 * started, `422 {details}`) and status (`202` processing, `200` all succeeded, `206` some, `500`
 * none, `400` unknown transaction).
 */
export function transactionRoutes(
  transactions: TransactionStore,
  auth: RequestHandler,
  json: RequestHandler,
): Router {
  const router = Router();
  router.post(START_PATH, auth, json, (req, res) => {
    const id = String(req.params.txnId);
    const found = transactions.lookup(id, res.locals.clientId as string);
    if (found.kind === 'foreign') return notFound(res, id);
    if (found.kind === 'none') {
      return res.status(400).json({
        error: { code: 'transaction_not_found', msg: `Ask for an upload grant with txn_id=${id} first.` },
      });
    }
    const transaction = found.transaction;
    if (transaction.state !== 'granted') {
      return res
        .status(409)
        .json({ error: { code: 'already_started', msg: `Transaction ${id} was started already.` } });
    }
    const parsed = parseStartRequest(req.body);
    if ('details' in parsed) return unprocessable(res, parsed.details);
    const locations = folderLocations(storageUrl(req), transaction.folder);
    if (!locations.includes(parsed.request.batchUrl)) {
      return unprocessable(res, [
        {
          loc: ['body', 'batch_s3_url'],
          msg: `must be uploadData.url + folderPath (${locations[0]}) or ${locations[1]}`,
          type: 'value_error',
        },
      ]);
    }
    const listed = parsed.request.files;
    if (listed === undefined) {
      // Left out: every audio file of the folder, once none is still arriving (a file still being
      // stored would otherwise be silently left out of the transcription).
      const arriving = transactions.storingNames(transaction);
      if (arriving.length > 0 || transaction.files.size === 0) {
        return unprocessable(res, [
          {
            loc: ['body', 'client_generated_files'],
            msg:
              arriving.length > 0
                ? `${arriving.join(', ')} still being stored: start once every upload has been answered`
                : `no audio file was uploaded to ${transaction.folder}: upload one, or name the files`,
            type: 'value_error.file_missing',
          },
        ]);
      }
    }
    const names =
      listed === undefined
        ? [...transaction.files.keys()]
        : listed.map((entry) => fileNameOf(entry, locations));
    const details = fileDetails(transaction, names, (name) => transactions.isStoring(transaction, name));
    if (details.length > 0) return unprocessable(res, details);
    transactions.start(transaction, { ...parsed.request, files: names as string[] });
    return res.status(201).json({
      status: 'success',
      message: 'Transaction initialised; results follow the v2rx.completed notification.',
      txn_id: id,
      b_id: `b-${transaction.owner}`,
    });
  });

  router.get(STATUS_PATH, auth, (req, res) => {
    const id = String(req.params.txnId);
    const found = transactions.lookup(id, res.locals.clientId as string);
    if (found.kind === 'foreign') return notFound(res, id);
    if (found.kind === 'none' || found.transaction.state === 'granted') {
      return res.status(400).json({
        error: { code: 'transaction_not_found', msg: `No started transaction ${id}: start it first.` },
      });
    }
    const transaction = found.transaction;
    const additional_data = transaction.request?.additionalData;
    if (transaction.state !== 'completed' || !transaction.output) {
      res.setHeader('Retry-After', '1');
      return res.status(202).json({ data: { output: [], additional_data } });
    }
    const succeeded = transaction.output.filter((item) => item.status === 'success').length;
    const status =
      succeeded === transaction.output.length
        ? 200
        : transaction.output.every((item) => item.status === 'failure')
          ? 500
          : 206;
    return res.status(status).json({
      data: {
        txn_id: id,
        created_at: transaction.createdAt,
        completed_at: transaction.completedAt,
        output: transaction.output,
        additional_data,
      },
    });
  });
  return router;
}
