import { decryptWithKeys } from './decrypt-with-keys.js';
import { diagnose } from './diagnose.js';
import { headerSourceNote } from './format.js';
import { type HarEntryView, readHarEntry } from './har.js';
import type { KeySet } from './keys.js';
import { decryptedLabel, kidMismatchWarning } from './kid-mismatch.js';
import { readLooseEnvelope } from './loose-envelope.js';
import { classifyPlaintext, type Payload } from './payload.js';

/** What became of one request or response body. */
export type BodyOutcome =
  | { kind: 'none' }
  | { kind: 'plain' }
  /** Encrypted, but no key was given. */
  | { kind: 'encrypted' }
  | {
      kind: 'decrypted';
      kid: string | null;
      keyKid: string | null;
      kidMismatch: boolean;
      /** Set when the kid named another key than the one that opened it (see `kidMismatchWarning`). */
      warning: string | null;
      note: string | null;
      payload: Payload;
    }
  | { kind: 'failed'; code: string; reason: string };

export interface HarRow {
  entry: number;
  method: string;
  url: string;
  /** The URL without its query string and fragment, which often carry tokens and identifiers. */
  path: string;
  status: number | null;
  request: BodyOutcome;
  response: BodyOutcome;
}

export interface HarAnalysis {
  entries: number;
  rows: HarRow[];
}

export interface AnalyzeHarOptions {
  /** Called after each entry, e.g. to report progress from a worker. */
  onEntry?: (done: number, total: number) => void;
}

/** The URL without query and fragment; the text as it is when it does not parse as a URL. */
export function urlWithoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

async function outcomeOf(
  side: HarEntryView['sides'][number],
  keys: KeySet | undefined,
): Promise<BodyOutcome> {
  if (side.text === undefined) return { kind: 'none' };
  if (!side.encrypted) return { kind: 'plain' };
  if (!keys) return { kind: 'encrypted' };
  try {
    const result = await decryptWithKeys(side.text.trim(), keys);
    return {
      kind: 'decrypted',
      kid: result.kid ?? null,
      keyKid: result.keyKid ?? null,
      kidMismatch: result.kidMismatch,
      warning: kidMismatchWarning(result),
      note: headerSourceNote(result.headerSource) ?? null,
      payload: await classifyPlaintext(result.plaintext),
    };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    return {
      kind: 'failed',
      code: typeof code === 'string' ? code : 'ERR_INPUT',
      reason: code === 'ERR_JWE_DECRYPTION_FAILED' ? failureReason(side.text.trim(), keys) : message,
    };
  }
}

/**
 * One line on why an envelope did not open, for a table row: what the envelope itself shows
 * (a cut-off ciphertext, a 32-byte tag, non-canonical base64url), else whether its kid names a
 * key that was not given, else the honest "wrong key or modified" (which cannot be told apart).
 */
export function failureReason(text: string, keys: KeySet): string {
  let report: ReturnType<typeof diagnose>['report'] | undefined;
  try {
    report = diagnose(readLooseEnvelope(text)).report;
  } catch {
    report = undefined;
  }
  const shown =
    report?.diagnostics.find((d) => d.severity === 'error') ??
    report?.diagnostics.find((d) => d.code === 'BASE64URL_NONCANONICAL');
  if (shown) return shown.message;
  const kid = report?.kid ?? null;
  const kids = keys.entries.flatMap((entry) => (entry.kid === undefined ? [] : [entry.kid]));
  if (kid !== null && kids.length > 0 && !kids.includes(kid)) {
    return `Its kid "${kid}" names none of the keys given, and no key given authenticated it: the sender used another key.`;
  }
  return (
    `No key given authenticated it${kid === null ? '' : ` (kid "${kid}")`}: a wrong key or an envelope modified on the way; ` +
    'the two cannot be told apart. Open the entry for what is ruled out.'
  );
}

/** Every entry of a HAR file with the outcome of its request and response bodies, in order. */
export async function analyzeHar(
  document: Record<string, unknown>,
  keys: KeySet | undefined,
  { onEntry }: AnalyzeHarOptions = {},
): Promise<HarAnalysis> {
  const entries = (document.log as { entries: unknown[] }).entries;
  const rows: HarRow[] = [];
  for (let index = 0; index < entries.length; index++) {
    const view = readHarEntry(entries[index], index);
    if (view) {
      const [request, response] = view.sides;
      rows.push({
        entry: view.entry,
        method: view.method,
        url: view.url,
        path: urlWithoutQuery(view.url),
        status: view.status ?? null,
        request: await outcomeOf(request, keys),
        response: await outcomeOf(response, keys),
      });
    }
    onEntry?.(index + 1, entries.length);
  }
  return { entries: entries.length, rows };
}

/** One word per outcome, for filters and tables: none, plain, encrypted, decrypted, failed. */
export function outcomeLabel(outcome: BodyOutcome): string {
  switch (outcome.kind) {
    case 'decrypted':
      return decryptedLabel(outcome);
    case 'failed':
      return `failed: ${outcome.code}`;
    case 'encrypted':
      return 'encrypted (no key)';
    default:
      return outcome.kind;
  }
}
