/**
 * Login attempts per client id and source address together, in fixed one-minute windows counted
 * as attempts arrive (no timer). Keying by both means that someone who knows a client id can use
 * up that id's attempts only from their own address: the rightful client, calling from elsewhere,
 * still gets in. Ids that are not configured share one window per address, so guessing ids neither
 * gets more attempts nor grows memory faster than addresses do; old windows are dropped once the
 * map grows.
 */
export class LoginLimiter {
  static readonly UNKNOWN = '\0unknown-client';
  static readonly MAX_WINDOWS = 10_000;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly knownIds: ReadonlySet<string>,
    private readonly now: () => number,
  ) {}

  /**
   * Counts one attempt of `clientId` from `source` (the peer address); answers how many seconds to
   * wait when that window is already full, else 0.
   */
  attempt(clientId: string, source: string): number {
    const id = this.knownIds.has(clientId) ? clientId : LoginLimiter.UNKNOWN;
    const now = this.now();
    let key = `${id}\0${source}`;
    if (!this.#windows.has(key) && this.#windows.size >= LoginLimiter.MAX_WINDOWS) {
      this.#sweep(now);
      // Still full (attempts from very many addresses at once): those new addresses share one window per id.
      if (this.#windows.size >= LoginLimiter.MAX_WINDOWS) key = `${id}\0overflow`;
    }
    let window = this.#windows.get(key);
    if (!window || now - window.start >= 60_000) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    if (window.count >= this.perMinute) return Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
    window.count++;
    return 0;
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (now - window.start >= 60_000) this.#windows.delete(key);
  }
}
