/**
 * `@jwe-transport/inspect-core`: the reading and diagnosis engine behind the `jwe-transport` CLI
 * and the browser inspector. Runtime-neutral (no Node built-ins; WebCrypto for crypto), so the
 * same code runs in Node, browsers and workers.
 * @packageDocumentation
 */
export { Base64UrlAnalyzer, checkBase64Url, type DecodedPart, type PartSummary } from './base64url-check.js';
export { fromBase64, fromBase64Url, toBase64, toHex } from './bytes.js';
export {
  type ClassifiedInput,
  classifyInput,
  isCompactText,
  isEnvelopeObject,
  isHar,
  looksLikeEnvelope,
  requireEnvelopeBody,
} from './classify.js';
export {
  type DecryptedEnvelope,
  type DecryptWithKeysOptions,
  decryptionFailedError,
  decryptWithKeys,
} from './decrypt-with-keys.js';
export { type DecodedEnvelope, diagnose } from './diagnose.js';
export { sha256Hex } from './digest.js';
export { InspectError, type InspectErrorCode, isInspectError } from './errors.js';
export { formatSize, headerSourceNote } from './format.js';
export {
  type HarBody,
  type HarEntryView,
  type HarScan,
  type HarSide,
  readHarEntry,
  scanHar,
} from './har.js';
export {
  type AnalyzeHarOptions,
  analyzeHar,
  type BodyOutcome,
  failureReason,
  type HarAnalysis,
  type HarRow,
  outcomeLabel,
  urlWithoutQuery,
} from './har-analysis.js';
export { decryptedHar, type ExportOptions, plaintextOf, redactedHar } from './har-export.js';
export {
  type HttpMessage,
  headerValue,
  isMarkedEncrypted,
  looksLikeHttpMessage,
  parseHttpMessage,
} from './http-message.js';
export { type Inspection, inspectEnvelope } from './inspect.js';
export { type KeyEntry, type KeySet, keyFingerprint, keysToTry, parseKeyText } from './keys.js';
export {
  decryptedLabel,
  kidMismatchWarning,
  kidNamesOtherKey,
  type OpenedKids,
} from './kid-mismatch.js';
export { type LooseEnvelope, readLooseEnvelope } from './loose-envelope.js';
export { maskIdentifiers, maskValue } from './mask.js';
export { isPrintableText, type MediaInfo, sniffMediaType } from './media-type.js';
export { isObject } from './object.js';
export { parseJsonQuietly } from './parse-json.js';
export { classifyPlaintext, describePayload, type Payload } from './payload.js';
export type {
  Diagnostic,
  InspectReport,
  PartLength,
  ProtectedHeaderReport,
  Verification,
} from './report.js';
export {
  type AadReading,
  aadReadings,
  decryptAuthenticated,
  findTagMatch,
  fullHmac,
  type TagMatch,
} from './tag-analysis.js';
export { type VerifyResult, verifyEnvelope } from './verify.js';
export {
  checkWebhookSignature,
  parseSignatureHeader,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookCheck,
  type WebhookCheckOptions,
} from './webhook.js';
