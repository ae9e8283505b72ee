import type { Opened, RefusalReporting } from '@jwe-transport/server-core';
import type { Request, Response } from 'express';
import { encryptJsonResponses } from './encrypt-response.js';
import type { ExpressSettings } from './options.js';

/** Records what the core decided on `req.jwe`, and seals JSON answers when it holds a key. */
export function recordOpened(req: Request, res: Response, settings: ExpressSettings, opened: Opened): void {
  if (opened.responseKey) encryptJsonResponses(res, settings, opened);
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

/** The reporting of the jwe()/upload() handler that refused a request, for `jweErrorHandler`. */
const kReporting = Symbol('jwe-transport refusal reporting');

type WithReporting = Request & { [kReporting]?: RefusalReporting };

export function setRefusalReporting(req: Request, reporting: RefusalReporting): void {
  (req as WithReporting)[kReporting] = reporting;
}

export function refusalReportingOf(req: Request): RefusalReporting | undefined {
  return (req as WithReporting)[kReporting];
}
