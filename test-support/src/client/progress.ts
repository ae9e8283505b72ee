// What every adapter's upload progress must look like, checked on the list of events it reported.
import { expect } from 'vitest';

export interface ProgressPoint {
  loaded: number;
  total: number | undefined;
}

/**
 * Events are monotonic, carry the file's size as `total` from the first one, end at exactly that
 * size, and (unless the client throttles by time, as axios does) come at least once per 4 MiB.
 */
export function expectPlaintextProgress(
  events: readonly ProgressPoint[],
  size: number,
  options: { throttled?: boolean } = {},
): void {
  expect(events.length, 'at least one progress event').toBeGreaterThan(0);
  let previous = 0;
  let widest = 0;
  for (const event of events) {
    expect(event.total).toBe(size);
    expect(event.loaded).toBeGreaterThanOrEqual(previous);
    expect(event.loaded).toBeLessThanOrEqual(size);
    widest = Math.max(widest, event.loaded - previous);
    previous = event.loaded;
  }
  expect(events.at(-1)!.loaded).toBe(size);
  if (!options.throttled) expect(widest).toBeLessThanOrEqual(4 * 2 ** 20);
}
