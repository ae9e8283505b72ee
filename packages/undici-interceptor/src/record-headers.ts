import type { IncomingHttpHeaders } from 'node:http';
import type { HeaderEditor, HeaderView } from '@jwe-transport/client-core/adapter';

/**
 * undici's parsed header record, read and edited the way the client core reads fetch `Headers`,
 * without building one per response. undici gives names in lower case; a record from elsewhere
 * may not, so a lookup that misses falls back to comparing names without regard to case.
 */
export class RecordHeaders implements HeaderView, HeaderEditor {
  readonly record: IncomingHttpHeaders;

  constructor(record: IncomingHttpHeaders) {
    this.record = record;
  }

  /** Whether some name is not in lower case: worked out once, on the first lookup that misses. */
  #mixedCase: boolean | undefined;

  #name(name: string): string | undefined {
    if (name in this.record) return name;
    this.#mixedCase ??= Object.keys(this.record).some((key) => key !== key.toLowerCase());
    if (!this.#mixedCase) return undefined;
    for (const key in this.record) if (key.toLowerCase() === name) return key;
    return undefined;
  }

  get(name: string): string | null {
    const key = this.#name(name);
    const value = key === undefined ? undefined : this.record[key];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : String(value);
  }

  has(name: string): boolean {
    const key = this.#name(name);
    return key !== undefined && this.record[key] !== undefined;
  }

  set(name: string, value: string): void {
    const key = this.#name(name);
    if (key !== undefined && key !== name) delete this.record[key];
    if (name !== name.toLowerCase()) this.#mixedCase = true;
    this.record[name] = value;
  }

  delete(name: string): void {
    const key = this.#name(name);
    if (key !== undefined) delete this.record[key];
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of Object.entries(this.record)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) callback(item, name);
      else callback(String(value), name);
    }
  }
}
