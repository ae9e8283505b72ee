/** What `inspect` found; printed for people or, with --json, as it is. */
export interface Diagnostic {
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
}

export interface PartLength {
  name: string;
  chars: number;
  /** Decoded length; null for members that are not base64url. */
  bytes: number | null;
}

export interface ProtectedHeaderReport {
  present: boolean;
  decoded?: unknown;
  /** Which of the two encodings seen in the wild it is, if either. */
  encoding?: 'compact' | 'spaced' | 'other';
}

export interface Verification {
  ok: boolean;
  /** How the envelope authenticated: the codec's header source, or a non-standard reading found by hand. */
  authenticatedAs?: string;
  keyKid?: string | null;
  payload?: Record<string, unknown>;
  findings: string[];
  ruledOut: string[];
  remaining: string[];
}

export interface InspectReport {
  serialization: 'flattened JSON' | 'compact';
  protectedHeader: ProtectedHeaderReport;
  header: Record<string, unknown>;
  kid: string | null;
  parts: PartLength[];
  diagnostics: Diagnostic[];
  verification?: Verification;
}
