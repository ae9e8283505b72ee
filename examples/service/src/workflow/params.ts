import { invalidRequest } from './errors.js';

// The service's own reading of spec 2.7, written apart from the client's model so each checks the other.
const TEMPLATES = new Set(['clinical_notes_template', 'eka_emr_template', 'transcript_template']);
const MODELS = new Set(['pro', 'lite']);
const LANGUAGES = new Set(['en-IN', 'en-US', 'hi', 'gu', 'kn', 'ml', 'ta', 'te', 'bn', 'mr', 'pa']);

export interface RequestedTemplate {
  templateId: string;
  codificationNeeded: boolean;
}

export interface SessionParams {
  transactionId: string | undefined;
  action: string;
  mode: string | undefined;
  modelType: string | undefined;
  languages: string[];
  templates: RequestedTemplate[];
}

const invalid = (message: string) => invalidRequest('transcription.params.invalid', message);

function jsonField(fields: Map<string, string>, name: string): unknown {
  const text = fields.get(name);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(`The form field ${name} must be JSON.`);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Reads the form fields of an upload: `transaction_id`, `action`, `extra_data` (JSON), `output_format` (JSON). */
export function parseSessionParams(fields: Map<string, string>): SessionParams {
  const extra = jsonField(fields, 'extra_data') ?? {};
  const format = jsonField(fields, 'output_format');
  if (!isRecord(extra)) throw invalid('extra_data must be a JSON object.');
  if (extra.model_type !== undefined && !MODELS.has(String(extra.model_type))) {
    throw invalid(`extra_data.model_type must be "pro" or "lite".`);
  }
  if (!isRecord(format))
    throw invalid('output_format is required: {"input_language": [...], "output_template": [...]}.');
  const languages = format.input_language;
  if (
    !Array.isArray(languages) ||
    languages.length === 0 ||
    !languages.every((id) => LANGUAGES.has(String(id)))
  ) {
    throw invalid(`output_format.input_language must list language ids among ${[...LANGUAGES].join(', ')}.`);
  }
  const templates = format.output_template;
  if (!Array.isArray(templates) || templates.length === 0) {
    throw invalid('output_format.output_template must list at least one template.');
  }
  const requested: RequestedTemplate[] = templates.map((template) => {
    if (!isRecord(template) || !TEMPLATES.has(String(template.template_id))) {
      throw invalid(`Each output_template needs a template_id among ${[...TEMPLATES].join(', ')}.`);
    }
    if (typeof template.codification_needed !== 'boolean') {
      throw invalid('Each output_template needs codification_needed true or false.');
    }
    return { templateId: String(template.template_id), codificationNeeded: template.codification_needed };
  });
  if (new Set(requested.map((item) => item.templateId)).size !== requested.length) {
    throw invalid('Each template_id may be requested once.');
  }
  const transactionId = fields.get('transaction_id');
  if (transactionId !== undefined && !/^[A-Za-z0-9._:-]{1,128}$/.test(transactionId)) {
    throw invalid('transaction_id must be 1 to 128 letters, digits or . _ : -');
  }
  return {
    transactionId,
    action: fields.get('action') ?? 'scribe-v2',
    mode: typeof extra.mode === 'string' ? extra.mode : undefined,
    modelType: typeof extra.model_type === 'string' ? extra.model_type : undefined,
    languages: languages.map(String),
    templates: requested,
  };
}
