/**
 * Remembers the signatures seen within the tolerance window, so that a captured delivery cannot be
 * sent again while its timestamp is still fresh. Memory is bounded: entries leave once their
 * timestamp is out of the window, and the oldest leave first when `maxEntries` is reached (a
 * delivery that old-by-arrival would have to beat the window anyway).
 */
export class ReplayGuard {
  readonly #seen = new Map<string, number>();
  readonly #windowSeconds: number;
  readonly #maxEntries: number;

  constructor(windowSeconds: number, maxEntries = 10_000) {
    this.#windowSeconds = windowSeconds;
    this.#maxEntries = Math.max(1, maxEntries);
  }

  get size(): number {
    return this.#seen.size;
  }

  /** Records `(timestamp, signature)`; false when it was already seen. */
  remember(timestamp: number, signature: string, nowSeconds: number): boolean {
    this.#forgetExpired(nowSeconds);
    const key = `${timestamp}.${signature.toLowerCase()}`;
    if (this.#seen.has(key)) return false;
    if (this.#seen.size >= this.#maxEntries) {
      const oldest = this.#seen.keys().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
    this.#seen.set(key, timestamp);
    return true;
  }

  #forgetExpired(nowSeconds: number): void {
    // Insertion order is roughly timestamp order; stop at the first entry still in the window.
    for (const [key, timestamp] of this.#seen) {
      if (nowSeconds - timestamp <= this.#windowSeconds) break;
      this.#seen.delete(key);
    }
  }
}
