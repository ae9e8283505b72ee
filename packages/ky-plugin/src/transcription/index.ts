export { audioContentType } from './content-type.js';
export {
  type DecodedDocument,
  type DecodedResult,
  type DecodeOptions,
  type DocumentFormat,
  decodeSessionResult,
  documentFormat,
  type ResultStatus,
} from './decode.js';
export { isTranscriptionError, TranscriptionError, type TranscriptionErrorCode } from './errors.js';
export type { ExtraKyOptions, KyLike } from './http.js';
export {
  type ExtraData,
  type OutputFormat,
  type OutputTemplate,
  parseTranscriptionParams,
  type TranscriptionParams,
  transcriptionParamsIssues,
} from './params.js';
export { type PolledResult, type PollOptions, pollSessionResult, RESULT_PATH } from './poll.js';
export type { FhirOutput, ResultItem, SessionResult } from './result.js';
export {
  createWebhookSubscription,
  SUBSCRIPTION_PATH,
  type WebhookSubscription,
  type WebhookSubscriptionRequest,
} from './subscription.js';
export { type AudioFile, UPLOAD_PATH, type UploadEntry, type UploadOptions, uploadAudio } from './upload.js';
export {
  COMPLETED_EVENT,
  INPUT_LANGUAGES,
  type InputLanguage,
  ITEM_STATUSES,
  type ItemStatus,
  MODEL_TYPES,
  type ModelType,
  SCRIBE_ACTION,
  TEMPLATE_IDS,
  type TemplateId,
} from './vocabulary.js';
