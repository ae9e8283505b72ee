import type { RefusalReporting } from '@jwe-transport/server-core';

/** The reporting of the jwe()/upload() handler an error came from, for `jweErrorHandler`. */
const reportingOf = new WeakMap<object, RefusalReporting>();

/** Lets a handler's refusals carry its `logger`/`onReject` to the error handler that answers them. */
export function refusalReporting(settings: RefusalReporting) {
  const reporting: RefusalReporting = {};
  if (settings.logger) reporting.logger = settings.logger;
  if (settings.onReject) reporting.onReject = settings.onReject;
  const any = reporting.logger !== undefined || reporting.onReject !== undefined;
  return {
    attach(error: unknown): void {
      if (any && typeof error === 'object' && error !== null) reportingOf.set(error, reporting);
    },
  };
}

export function attachedReporting(error: unknown): RefusalReporting | undefined {
  return typeof error === 'object' && error !== null ? reportingOf.get(error) : undefined;
}
