import type { Opened } from '@jwe-transport/server-core/adapter';
import type { Request, Response } from 'express';
import { encryptJsonResponses } from './encrypt-response.js';

/** Records what the core decided on `req.jwe`, and seals JSON answers when it holds a key. */
export function recordOpened(req: Request, res: Response, opened: Opened): void {
  if (opened.responseKey) encryptJsonResponses(res, opened.responseKey);
  req.jwe = opened.info;
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
