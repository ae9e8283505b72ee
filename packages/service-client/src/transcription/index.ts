/**
 * `@jwe-transport/service-client/transcription`: the documented transcription steps one by one
 * (grant, presigned storage upload, start, status), the spec's parameters and vocabulary, and the
 * decoding of results.
 * @packageDocumentation
 */

export type { FetchLike } from '../http/fetch-like.js';
export { AUDIO_CONTENT_TYPES, audioContentType } from './content-type.js';
export {
  type DecodedDocument,
  type DecodedResult,
  type DecodeOptions,
  type DocumentFormat,
  decodeSessionResult,
  documentFormat,
  type ResultStatus,
} from './decode.js';
export {
  isTranscriptionError,
  TranscriptionError,
  type TranscriptionErrorCode,
  type TranscriptionErrorDetails,
} from './errors.js';
export {
  type GrantOptions,
  parseUploadGrant,
  UPLOAD_GRANT_PATH,
  type UploadGrant,
} from './grant.js';
export type { SizedSource } from './multipart-stream.js';
export {
  type ExtraData,
  type OutputFormat,
  type OutputTemplate,
  parseTranscriptionParams,
  type TranscriptionParams,
  transcriptionParamsIssues,
} from './params.js';
export type { ProgressListener, RetriedStep, TranscribeProgress } from './progress.js';
export type { FhirOutput, ResultItem, SessionResult } from './result.js';
export type { RetryOptions } from './retry.js';
export {
  type PostStartOptions,
  START_PATH,
  type StartedTranscription,
  type StartOptions,
  startBody,
} from './start.js';
export { type ResultState, STATUS_PATH } from './status.js';
export {
  type AudioFile,
  MAX_UPLOAD_BYTES,
  type StorageUploadOptions,
  uploadToStorage,
} from './storage-upload.js';
export {
  SUBSCRIPTION_PATH,
  type WebhookSubscription,
  type WebhookSubscriptionRequest,
} from './subscription.js';
export {
  COMPLETED_EVENT,
  INPUT_LANGUAGES,
  type InputLanguage,
  ITEM_STATUSES,
  type ItemStatus,
  MODEL_TYPES,
  MODES,
  type Mode,
  type ModelType,
  SCRIBE_ACTION,
  TEMPLATE_IDS,
  type TemplateId,
  TRANSFERS,
  type Transfer,
  UPLOAD_GRANT_ACTION,
} from './vocabulary.js';
export type { FinishedResult, WaitOptions } from './wait.js';
