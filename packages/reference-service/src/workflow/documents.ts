import type { RequestedTemplate, StartedRequest } from './start-request.js';

/** What the service knows about one uploaded audio file. */
export interface AudioFileRecord {
  name: string;
  size: number;
  sha256: string;
  /** Detected from the file extension (spec 2.7). */
  contentType: string;
}

/** One `data.output` item (spec 2.9; docs/wire-format.md, "Step 4: results"). */
export interface OutputItem {
  template_id: string;
  value: string;
  type: 'markdown' | 'json' | 'transcript';
  name: string;
  status: 'success' | 'partial_success' | 'failure';
  errors: { code: string; message: string }[];
  warnings: { code: string; message: string }[];
}

const NO_SPEECH =
  'The reference service does not transcribe speech: this document describes the uploaded audio files.';

/** The requested languages, or what an empty list means (the service detects the language). */
const languagesOf = (params: StartedRequest) => params.languages.join(', ') || 'not given (detected)';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function transcript(sessionId: string, params: StartedRequest, files: AudioFileRecord[]): string {
  const lines = [
    NO_SPEECH,
    `session: ${sessionId}`,
    `mode: ${params.mode}; transfer: ${params.transfer}; model: ${params.modelType}`,
    `languages: ${languagesOf(params)}`,
  ];
  files.forEach((file, index) => {
    lines.push(
      `file ${index + 1}: ${file.name}, ${file.size} bytes, ${file.contentType}, sha256 ${file.sha256}`,
    );
  });
  return `${lines.join('\n')}\n`;
}

function clinicalNotes(
  sessionId: string,
  params: StartedRequest,
  files: AudioFileRecord[],
  template: RequestedTemplate,
) {
  const rows = files.map((file) => `| ${file.name} | ${file.size} | ${file.contentType} | ${file.sha256} |`);
  return [
    '# Clinical notes',
    '',
    `_${NO_SPEECH}_`,
    '',
    `- Session: ${sessionId}`,
    `- Mode: ${params.mode}; transfer: ${params.transfer}; model: ${params.modelType}`,
    `- Speciality: ${params.speciality ?? 'not given'}`,
    `- Languages: ${languagesOf(params)}`,
    `- Codification needed: ${template.codificationNeeded ? 'yes' : 'no'}`,
    '',
    '| File | Bytes | Content type | SHA-256 |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

function emrRecord(
  sessionId: string,
  params: StartedRequest,
  files: AudioFileRecord[],
  template: RequestedTemplate,
) {
  return JSON.stringify({
    session_id: sessionId,
    mode: params.mode,
    transfer: params.transfer,
    model_type: params.modelType,
    speciality: params.speciality ?? null,
    languages: params.languages,
    codification_needed: template.codificationNeeded,
    files: files.map((file) => ({
      name: file.name,
      size: file.size,
      sha256: file.sha256,
      content_type: file.contentType,
    })),
    note: NO_SPEECH,
  });
}

/** Empty audio cannot have been dictated: the document is still made, with a warning per empty file. */
function warningsFor(files: AudioFileRecord[]) {
  return files
    .filter((file) => file.size === 0)
    .map((file) => ({ code: 'audio.empty', message: `The file ${file.name} is empty.` }));
}

/** One document per requested template, built from the files' metadata. */
export function buildOutput(
  sessionId: string,
  params: StartedRequest,
  files: AudioFileRecord[],
): OutputItem[] {
  const warnings = warningsFor(files);
  const allEmpty = files.every((file) => file.size === 0);
  const status: OutputItem['status'] =
    warnings.length === 0 ? 'success' : allEmpty ? 'failure' : 'partial_success';
  const errors = allEmpty
    ? [{ code: 'audio.none', message: 'Every uploaded file is empty; nothing to transcribe.' }]
    : [];
  return params.templates.map((template) => {
    const common = { template_id: template.templateId, status, errors, warnings };
    switch (template.templateId) {
      case 'clinical_notes_template':
        return {
          ...common,
          type: 'markdown',
          name: 'Clinical notes',
          value: base64(clinicalNotes(sessionId, params, files, template)),
        };
      case 'eka_emr_template':
        return {
          ...common,
          type: 'json',
          name: 'EMR record',
          value: base64(emrRecord(sessionId, params, files, template)),
        };
      default:
        return {
          ...common,
          type: 'transcript',
          name: 'Transcript',
          value: base64(transcript(sessionId, params, files)),
        };
    }
  });
}
