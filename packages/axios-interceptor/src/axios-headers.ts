import type { HeaderEditor, HeaderView } from '@jwe-transport/client-core/adapter';
import { AxiosHeaders, type RawAxiosHeaders } from 'axios';

/** What this package reads and edits on an `AxiosHeaders` (an instance from any copy of axios). */
interface AxiosHeaderStore extends Iterable<[string, unknown]> {
  get(name: string): unknown;
  has(name: string): boolean;
  set(name: string, value: string): unknown;
  delete(name: string): unknown;
}

function isHeaderStore(value: unknown): value is AxiosHeaderStore {
  const store = value as Partial<AxiosHeaderStore> | null | undefined;
  return (
    typeof store?.get === 'function' &&
    typeof store.has === 'function' &&
    typeof store.set === 'function' &&
    typeof store.delete === 'function' &&
    typeof store[Symbol.iterator] === 'function'
  );
}

/**
 * A response's axios headers, read and edited the way the client core reads fetch `Headers`,
 * without converting them: `AxiosHeaders` already compares names without regard to case.
 * A response from a custom adapter with a plain record gets an `AxiosHeaders` of its own.
 */
export class AxiosHeaderView implements HeaderView, HeaderEditor {
  readonly store: AxiosHeaderStore;

  constructor(headers: unknown) {
    this.store = isHeaderStore(headers)
      ? headers
      : (new AxiosHeaders((headers ?? {}) as RawAxiosHeaders) as unknown as AxiosHeaderStore);
  }

  get(name: string): string | null {
    const value = this.store.get(name);
    if (value === undefined || value === null || value === false) return null;
    return Array.isArray(value) ? value.join(', ') : String(value);
  }

  has(name: string): boolean {
    return this.store.has(name);
  }

  set(name: string, value: string): void {
    this.store.set(name, value);
  }

  delete(name: string): void {
    this.store.delete(name);
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of this.store) {
      if (value === undefined || value === null || value === false) continue;
      if (Array.isArray(value)) for (const item of value) callback(String(item), name);
      else callback(String(value), name);
    }
  }
}

/** axios request headers (an AxiosHeaders or a plain record) as fetch `Headers`, for a request filter. */
export function toFetchHeaders(headers: unknown): Headers {
  const result = new Headers();
  if (!headers) return result;
  const record =
    typeof (headers as { toJSON?: unknown }).toJSON === 'function'
      ? ((headers as { toJSON(): Record<string, unknown> }).toJSON() as Record<string, unknown>)
      : (headers as Record<string, unknown>);
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined || value === null || value === false) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      try {
        result.append(name, String(item));
      } catch {
        // A name fetch refuses (axios accepts more) cannot matter to the envelope rules.
      }
    }
  }
  return result;
}
