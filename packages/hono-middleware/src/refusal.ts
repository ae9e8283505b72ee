import { errorResponse, JweServer, type RefusalReporting } from '@jwe-transport/server-core';
import { describeRefusal, noteKid, reportRefusal } from '@jwe-transport/server-core/adapter';

/** `errorResponse` that reports the refusal first. */
export async function refuse(
  server: JweServer,
  reporting: RefusalReporting,
  error: unknown,
  opened?: Parameters<typeof errorResponse>[2],
): Promise<Response> {
  if (opened?.info.encrypted) noteKid(error, opened.info.kid);
  const answer = await errorResponse(server, error, opened);
  reportRefusal(error, reporting, describeRefusal(error));
  return answer;
}

/** The reporting part of the options, if any. */
export function reportingOf(options: RefusalReporting | JweServer): RefusalReporting {
  if (options instanceof JweServer) return {};
  const reporting: RefusalReporting = {};
  if (options.logger) reporting.logger = options.logger;
  if (options.onReject) reporting.onReject = options.onReject;
  return reporting;
}

/** The core's options without the reporting ones. */
export function stripReporting<T extends RefusalReporting>(options: T): Omit<T, 'logger' | 'onReject'> {
  const { logger: _logger, onReject: _onReject, ...rest } = options;
  return rest;
}
