import { expect } from 'vitest';

/**
 * What a library could start behind its caller's back: worker threads (from the diagnostic
 * report, which lists every Worker of the process whether or not it is ref'd) and the active
 * libuv handles and requests, where timers show up as `Timeout` and `Immediate`.
 */
export interface Activity {
  workers: number;
  resources: string[];
}

export function activity(): Activity {
  const report = process.report.getReport() as unknown as { workers: unknown[] };
  return { workers: report.workers.length, resources: process.getActiveResourcesInfo() };
}

const STARTED_BY_A_LIBRARY = /^(Timeout|Immediate|Worker|MessagePort)$/;

/** Asserts that nothing in `after` is a worker or timer that `before` did not already have. */
export function expectNothingStarted(before: Activity, after: Activity): void {
  expect(after.workers).toBe(before.workers);
  const count = (list: string[]) => list.filter((name) => STARTED_BY_A_LIBRARY.test(name)).length;
  expect(count(after.resources)).toBeLessThanOrEqual(count(before.resources));
}
