/**
 * `@jwe-transport/inspect-core`: the reading and diagnosis engine behind the `jwe-transport` CLI
 * and the browser inspector. Runtime-neutral (no Node built-ins; WebCrypto for crypto), so the
 * same code runs in Node, browsers and workers.
 * @packageDocumentation
 */
export type { PartSummary } from './base64url-check.js';
export { type ClassifiedInput, classifyInput, requireEnvelopeBody } from './classify.js';
export { type DecryptedEnvelope, type DecryptWithKeysOptions, decryptWithKeys } from './decrypt-with-keys.js';
export { type DecodedEnvelope, diagnose } from './diagnose.js';
export { InspectError, type InspectErrorCode, isInspectError } from './errors.js';
export { type HarBody, type HarScan, type HarSide, scanHar } from './har.js';
export {
  type AnalyzeHarOptions,
  analyzeHar,
  type BodyOutcome,
  failureReason,
  type HarAnalysis,
  type HarRow,
} from './har-analysis.js';
export { decryptedHar, type ExportOptions, redactedHar } from './har-export.js';
export { type HttpMessage, parseHttpMessage } from './http-message.js';
export { type Inspection, inspectEnvelope } from './inspect.js';
export { type KeyEntry, type KeySet, keyFingerprint, keysToTry, parseKeyText } from './keys.js';
export {
  decryptedLabel,
  kidMismatchWarning,
  kidNamesOtherKey,
  type OpenedKids,
} from './kid-mismatch.js';
export type { LooseEnvelope } from './loose-envelope.js';
export { maskIdentifiers, maskValue } from './mask.js';
export type { MediaInfo } from './media-type.js';
export { classifyPlaintext, type Payload } from './payload.js';
export type {
  Diagnostic,
  InspectReport,
  PartLength,
  ProtectedHeaderReport,
  Verification,
} from './report.js';
export { type AadReading, findTagMatch, type TagMatch } from './tag-analysis.js';
export { type VerifyResult, verifyEnvelope } from './verify.js';
export { checkWebhookSignature, type WebhookCheck, type WebhookCheckOptions } from './webhook.js';
