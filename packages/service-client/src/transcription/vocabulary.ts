/** Spec 2.7: the output templates the service can produce, one document each. */
export const TEMPLATE_IDS = ['clinical_notes_template', 'eka_emr_template', 'transcript_template'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

/** Spec 2.7: `pro` is the most accurate, `lite` the faster one. */
export const MODEL_TYPES = ['pro', 'lite'] as const;
export type ModelType = (typeof MODEL_TYPES)[number];

/** Spec 2.7: language ids accepted in `output_format.input_language`. */
export const INPUT_LANGUAGES = [
  'en-IN',
  'en-US',
  'hi',
  'gu',
  'kn',
  'ml',
  'ta',
  'te',
  'bn',
  'mr',
  'pa',
  // Odia: in the service's published language list, though not in the interface spec's table.
  'or',
] as const;
export type InputLanguage = (typeof INPUT_LANGUAGES)[number];

/** Spec 2.7 and 9: the action of the second generation of the workflow. */
export const SCRIBE_ACTION = 'scribe-v2';

/** docs/wire-format.md, "Step 1: upload grant": the grant's `action` for the second generation. */
export const UPLOAD_GRANT_ACTION = 'ekascribe-v2';

/** Spec 2.7 `extra_data.mode`, with the values the start call takes (docs/wire-format.md, "Step 3: start"). */
export const MODES = ['dictation', 'consultation'] as const;
export type Mode = (typeof MODES)[number];

/** docs/wire-format.md, "Step 3: start": `transfer`, whether the audio was cut at voice activity. */
export const TRANSFERS = ['non-vaded', 'vaded'] as const;
export type Transfer = (typeof TRANSFERS)[number];

/** Spec 6: the event sent when a transcription session is complete. */
export const COMPLETED_EVENT = 'v2rx.completed';

/** docs/wire-format.md, "Step 4: results": every status an output item can have. */
export const ITEM_STATUSES = ['success', 'partial_success', 'failure'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}
