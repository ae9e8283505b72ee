/**
 * Login attempts per client id in fixed one-minute windows, counted as attempts arrive (no timer).
 * Ids that are not configured share one window, so guessing ids neither grows memory nor gets more
 * attempts than a real client has.
 */
export class LoginLimiter {
  static readonly UNKNOWN = '\0unknown-client';
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly knownIds: ReadonlySet<string>,
    private readonly now: () => number,
  ) {}

  /** Counts one attempt; answers how many seconds to wait when the window is already full, else 0. */
  attempt(clientId: string): number {
    const key = this.knownIds.has(clientId) ? clientId : LoginLimiter.UNKNOWN;
    const now = this.now();
    let window = this.#windows.get(key);
    if (!window || now - window.start >= 60_000) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    if (window.count >= this.perMinute) return Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
    window.count++;
    return 0;
  }
}
