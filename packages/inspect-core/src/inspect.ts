import { diagnose } from './diagnose.js';
import type { KeySet } from './keys.js';
import { readLooseEnvelope } from './loose-envelope.js';
import type { Payload } from './payload.js';
import type { InspectReport } from './report.js';
import { verifyEnvelope } from './verify.js';

export interface Inspection {
  report: InspectReport;
  /** The opened content with its bytes, when a key authenticated it (by the standard or a by-hand reading). */
  payload?: Payload;
}

/**
 * Everything the engine can say about one envelope (flattened JSON text or compact): header, kid,
 * part lengths and diagnostics; with keys also whether it verifies, and if not, which causes are
 * ruled out and which are still possible.
 */
export async function inspectEnvelope(text: string, keys?: KeySet): Promise<Inspection> {
  const { report, decoded } = diagnose(readLooseEnvelope(text.trim()));
  if (!keys) return { report };
  const { verification, payload } = await verifyEnvelope(text.trim(), report, decoded, keys);
  report.verification = verification;
  return payload ? { report, payload } : { report };
}
