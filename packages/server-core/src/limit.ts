const UNITS: Record<string, number> = { b: 1, kb: 2 ** 10, mb: 2 ** 20, gb: 2 ** 30 };

/** A body size limit: a number of bytes, or text like `'100kb'`, `'25mb'`, `'1.5gb'` (binary units, like body-parser). */
export type SizeLimit = number | string;

export function parseLimit(limit: SizeLimit, option: string): number {
  if (typeof limit === 'number') {
    if (Number.isFinite(limit) && limit >= 0) return Math.floor(limit);
  } else if (typeof limit === 'string') {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(limit);
    if (match) return Math.floor(Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]!);
  }
  throw new TypeError(`${option} must be a byte count or a size such as "100kb" or "25mb".`);
}
