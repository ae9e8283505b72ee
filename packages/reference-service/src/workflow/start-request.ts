// The service's own reading of the start body (docs/wire-format.md, "Step 3"), written apart from any
// client's model so that each checks the other.
const TEMPLATES = new Set(['clinical_notes_template', 'eka_emr_template', 'transcript_template']);
// The published language list (the interface spec's eleven, and Odia).
const LANGUAGES = new Set(['en-IN', 'en-US', 'hi', 'gu', 'kn', 'ml', 'ta', 'te', 'bn', 'mr', 'pa', 'or']);
const MODES = new Set(['dictation', 'consultation']);
const TRANSFERS = new Set(['non-vaded', 'vaded']);
const MODEL_TYPES = new Set(['pro', 'lite']);
// A bare file name, or a full URL of one (resolved against the transaction's folder at start).
const FILE_ENTRY = /^(?:[^/\\\0]{1,255}|(?:s3|https?):\/\/[^\\\0]{1,1800})$/;

export interface RequestedTemplate {
  templateId: string;
  codificationNeeded: boolean;
}

/** What the service assumes for a start member its clients may leave out. */
export const START_DEFAULTS = {
  /** The service's defaults, and what its SDKs send when their caller does not say. */
  modelType: 'pro',
  /** No hint: the service detects the language. */
  languages: [] as string[],
  /** The plainest output every transcription has. */
  templates: [{ templateId: 'transcript_template', codificationNeeded: false }],
} as const;

export interface StartRequest {
  mode: string;
  transfer: string;
  /** `pro` or `lite`; `pro` when left out. */
  modelType: string;
  batchUrl: string;
  /**
   * `client_generated_files` as sent: bare names or full URLs, resolved by `fileNameOf()`; left
   * out, every audio file uploaded to the transaction's folder.
   */
  files: string[] | undefined;
  languages: string[];
  speciality: string | undefined;
  templates: RequestedTemplate[];
  additionalData: Record<string, unknown> | undefined;
}

/** A start request once its files are resolved to the names stored in the transaction's folder. */
export type StartedRequest = Omit<StartRequest, 'files'> & { files: string[] };

/** One entry of a 422 answer, in the style of FastAPI's validation errors. */
export interface Detail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const missing = (name: string): Detail => ({
  loc: ['body', name],
  msg: 'field required',
  type: 'value_error.missing',
});
const invalid = (loc: (string | number)[], msg: string): Detail => ({
  loc: ['body', ...loc],
  msg,
  type: 'value_error',
});

function oneOf(
  body: Record<string, unknown>,
  name: string,
  allowed: Set<string>,
  details: Detail[],
  fallback?: string,
): string {
  const value = body[name] ?? fallback;
  if (value === undefined) details.push(missing(name));
  else if (typeof value !== 'string' || !allowed.has(value))
    details.push(invalid([name], `must be one of ${[...allowed].join(', ')}`));
  return String(value);
}

function templatesOf(value: unknown, details: Detail[]): RequestedTemplate[] {
  if (!Array.isArray(value) || value.length === 0) {
    details.push(
      invalid(['output_format_template'], 'must list at least one {template_id, codification_needed}'),
    );
    return [];
  }
  const templates = value.map((item, index) => {
    const record = isRecord(item) ? item : {};
    if (!TEMPLATES.has(String(record.template_id)))
      details.push(
        invalid(
          ['output_format_template', index, 'template_id'],
          `must be one of ${[...TEMPLATES].join(', ')}`,
        ),
      );
    const codification = record.codification_needed ?? false;
    if (typeof codification !== 'boolean')
      details.push(
        invalid(['output_format_template', index, 'codification_needed'], 'must be true or false'),
      );
    return { templateId: String(record.template_id), codificationNeeded: codification === true };
  });
  if (new Set(templates.map((item) => item.templateId)).size !== templates.length)
    details.push(invalid(['output_format_template'], 'each template_id may be requested once'));
  return templates;
}

/** The start body, or the list of what is missing or wrong (answered as 422 `{details}`). */
export function parseStartRequest(body: unknown): { request: StartRequest } | { details: Detail[] } {
  if (!isRecord(body)) return { details: [invalid([], 'must be a JSON object')] };
  const details: Detail[] = [];
  const mode = oneOf(body, 'mode', MODES, details);
  const transfer = oneOf(body, 'transfer', TRANSFERS, details);
  const batchUrl = body.batch_s3_url;
  if (batchUrl === undefined) details.push(missing('batch_s3_url'));
  else if (typeof batchUrl !== 'string')
    details.push(invalid(['batch_s3_url'], 'must be uploadData.url + folderPath'));
  const files = body.client_generated_files;
  if (files === undefined) {
    // Left out: the service takes every audio file uploaded to the folder (resolved at start).
  } else if (
    !Array.isArray(files) ||
    files.length === 0 ||
    files.length > 50 ||
    files.some(
      (name) => typeof name !== 'string' || !FILE_ENTRY.test(name) || name === '.' || name === '..',
    ) ||
    new Set(files).size !== files.length
  )
    details.push(
      invalid(
        ['client_generated_files'],
        'must list 1 to 50 distinct file names (or their URLs) as uploaded',
      ),
    );
  const languages = body.input_language ?? [...START_DEFAULTS.languages];
  if (
    !Array.isArray(languages) ||
    (body.input_language !== undefined && languages.length === 0) ||
    !languages.every((id) => LANGUAGES.has(String(id)))
  )
    details.push(invalid(['input_language'], `must list language ids among ${[...LANGUAGES].join(', ')}`));
  const templates =
    body.output_format_template === undefined
      ? START_DEFAULTS.templates.map((template) => ({ ...template }))
      : templatesOf(body.output_format_template, details);
  const speciality = body.speciality;
  if (speciality !== undefined && typeof speciality !== 'string')
    details.push(invalid(['speciality'], 'must be a string'));
  const modelType = oneOf(body, 'model_type', MODEL_TYPES, details, START_DEFAULTS.modelType);
  const additionalData = body.additional_data;
  if (additionalData !== undefined && !isRecord(additionalData))
    details.push(invalid(['additional_data'], 'must be a JSON object'));
  if (details.length > 0) return { details };
  return {
    request: {
      mode,
      transfer,
      modelType,
      batchUrl: batchUrl as string,
      files: files as string[] | undefined,
      languages: (languages as unknown[]).map(String),
      speciality: speciality as string | undefined,
      templates,
      additionalData: additionalData as Record<string, unknown> | undefined,
    },
  };
}
