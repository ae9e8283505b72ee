import { TranscriptionError } from './errors.js';
import {
  INPUT_LANGUAGES,
  type InputLanguage,
  isOneOf,
  MODEL_TYPES,
  MODES,
  type Mode,
  type ModelType,
  SCRIBE_ACTION,
  TEMPLATE_IDS,
  type TemplateId,
} from './vocabulary.js';

/** One requested document (spec 2.7 `output_template` item). */
export interface OutputTemplate {
  template_id: TemplateId;
  codification_needed: boolean;
}

/** Spec 2.7 `output_format`. */
export interface OutputFormat {
  input_language: InputLanguage[];
  output_template: OutputTemplate[];
}

/** Spec 2.7 `extra_data`. */
export interface ExtraData {
  /** Default `dictation`. */
  mode?: Mode;
  model_type?: ModelType;
}

/** The transcription request parameters of spec 2.7, without the files. */
export interface TranscriptionParams {
  /** Groups related files; becomes the session id of the notification. Default: a random UUID. */
  transaction_id?: string;
  /** `scribe-v2`, the only documented generation (and the default). */
  action?: typeof SCRIBE_ACTION;
  extra_data?: ExtraData;
  output_format: OutputFormat;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function allowed(values: readonly string[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function checkOptionalString(value: unknown, path: string, issues: string[]): void {
  if (value !== undefined && (typeof value !== 'string' || value === '')) {
    issues.push(`${path} must be a non-empty string when given; got ${shown(value)}.`);
  }
}

function checkExtraData(value: unknown, issues: string[]): void {
  if (value === undefined) return;
  if (!isRecord(value)) {
    issues.push(`extra_data must be an object with "mode" and "model_type"; got ${shown(value)}.`);
    return;
  }
  if (value.mode !== undefined && !isOneOf(MODES, value.mode)) {
    issues.push(`extra_data.mode must be one of ${allowed(MODES)}; got ${shown(value.mode)}.`);
  }
  if (value.model_type !== undefined && !isOneOf(MODEL_TYPES, value.model_type)) {
    issues.push(
      `extra_data.model_type must be one of ${allowed(MODEL_TYPES)}; got ${shown(value.model_type)}.`,
    );
  }
}

function checkLanguages(value: unknown, issues: string[]): void {
  if (!Array.isArray(value) || value.length === 0) {
    issues.push(`output_format.input_language must be a non-empty array of ${allowed(INPUT_LANGUAGES)}.`);
    return;
  }
  value.forEach((language, index) => {
    if (!isOneOf(INPUT_LANGUAGES, language)) {
      issues.push(
        `output_format.input_language[${index}] must be one of ${allowed(INPUT_LANGUAGES)}; got ${shown(language)}.`,
      );
    }
  });
}

function checkTemplates(value: unknown, issues: string[]): void {
  if (!Array.isArray(value) || value.length === 0) {
    issues.push(
      'output_format.output_template must be a non-empty array of { template_id, codification_needed }.',
    );
    return;
  }
  const seen = new Set<unknown>();
  value.forEach((template, index) => {
    const path = `output_format.output_template[${index}]`;
    if (!isRecord(template)) {
      issues.push(`${path} must be an object { template_id, codification_needed }; got ${shown(template)}.`);
      return;
    }
    if (!isOneOf(TEMPLATE_IDS, template.template_id)) {
      issues.push(
        `${path}.template_id must be one of ${allowed(TEMPLATE_IDS)}; got ${shown(template.template_id)}.`,
      );
    } else if (seen.has(template.template_id)) {
      issues.push(
        `${path}.template_id ${shown(template.template_id)} is requested twice; ask for each once.`,
      );
    }
    seen.add(template.template_id);
    if (typeof template.codification_needed !== 'boolean') {
      issues.push(
        `${path}.codification_needed must be true or false; got ${shown(template.codification_needed)}.`,
      );
    }
  });
}

/** Every problem of `value` as a transcription request (spec 2.7), one readable line each. */
export function transcriptionParamsIssues(value: unknown): string[] {
  const issues: string[] = [];
  if (!isRecord(value)) return ['The transcription parameters must be an object with "output_format".'];
  checkOptionalString(value.transaction_id, 'transaction_id', issues);
  if (value.action !== undefined && value.action !== SCRIBE_ACTION) {
    issues.push(`action must be ${JSON.stringify(SCRIBE_ACTION)} when given; got ${shown(value.action)}.`);
  }
  if (typeof value.transaction_id === 'string' && !/^[A-Za-z0-9._:-]{1,128}$/.test(value.transaction_id)) {
    issues.push(
      `transaction_id must be 1 to 128 letters, digits or ".", "_", ":", "-" (it becomes a path segment); got ${shown(value.transaction_id)}.`,
    );
  }
  checkExtraData(value.extra_data, issues);
  if (!isRecord(value.output_format)) {
    issues.push('output_format must be an object with "input_language" and "output_template".');
  } else {
    checkLanguages(value.output_format.input_language, issues);
    checkTemplates(value.output_format.output_template, issues);
  }
  return issues;
}

/**
 * Checks transcription parameters against spec 2.7 (template ids, model types, languages) and
 * returns them typed; throws a `TranscriptionError` (`ERR_TRANSCRIPTION_PARAMS_INVALID`) whose
 * message lists every invalid field with the allowed values.
 */
export function parseTranscriptionParams(value: unknown): TranscriptionParams {
  const issues = transcriptionParamsIssues(value);
  if (issues.length > 0) {
    throw new TranscriptionError(
      'ERR_TRANSCRIPTION_PARAMS_INVALID',
      `Invalid transcription parameters: ${issues.join(' ')}`,
      { issues },
    );
  }
  return value as TranscriptionParams;
}
