import type { DecryptResult, JoseHeader } from '@jwe-transport/codec';
import { keyForKid, noResponseKey, type RecordingResolver } from '@jwe-transport/server-core';
import type { Request, Response } from 'express';
import { encryptJsonResponses } from './encrypt-response.js';
import type { ResolvedOptions } from './options.js';
import type { JweRequestInfo } from './request-info.js';

/** Records a plain request on `req.jwe`; with `responses: 'always'` its answers are still encrypted. */
export async function recordPlainRequest(
  req: Request,
  res: Response,
  options: ResolvedOptions,
): Promise<void> {
  const encryptsResponse = options.responses === 'always';
  if (encryptsResponse) {
    const key = await keyForKid(options.resolver, options.responseKid);
    if (key === undefined) throw noResponseKey();
    encryptJsonResponses(res, { key, kid: options.responseKid });
  }
  setInfo(req, {
    encrypted: false,
    kid: undefined,
    header: undefined,
    headerSource: undefined,
    encryptsResponse,
  });
}

type Decrypted = Pick<DecryptResult, 'kid' | 'headerSource'> & { header: JoseHeader | undefined };

/** Records an authenticated envelope on `req.jwe` and, unless told not to, answers under the same key and kid. */
export function recordEncryptedRequest(
  req: Request,
  res: Response,
  options: ResolvedOptions,
  result: Decrypted,
  recorder: RecordingResolver,
): void {
  const used = recorder.used;
  if (!used) throw noResponseKey();
  const encryptsResponse = options.responses !== 'never';
  if (encryptsResponse) encryptJsonResponses(res, { key: used.key, kid: result.kid });
  setInfo(req, {
    encrypted: true,
    kid: result.kid,
    header: result.header ?? used.header,
    headerSource: result.headerSource,
    encryptsResponse,
  });
}

function setInfo(req: Request, info: JweRequestInfo): void {
  req.jwe = info;
}

/**
 * Whether another parser consumed the body already. body-parser 1 marks it with `req._body`
 * (we set it too, so parsers mounted after us skip the request); body-parser 2 only checks that
 * the stream has ended.
 */
export function bodyAlreadyRead(req: Request): boolean {
  return (req as { _body?: boolean })._body === true || req.readableEnded;
}

export function markBodyRead(req: Request, body: unknown): void {
  req.body = body;
  (req as { _body?: boolean })._body = true;
}
