import { TranscriptionError } from '@jwe-transport/service-client';
import {
  decodeSessionResult,
  INPUT_LANGUAGES,
  MODEL_TYPES,
  parseTranscriptionParams,
  startBody,
  TEMPLATE_IDS,
  transcriptionParamsIssues,
} from '@jwe-transport/service-client/transcription';
import { describe, expect, it } from 'vitest';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const validParams = {
  transaction_id: 'txn-1',
  action: 'scribe-v2',
  extra_data: { mode: 'dictation', model_type: 'pro' },
  output_format: {
    input_language: ['en-IN', 'hi'],
    output_template: [
      { template_id: 'clinical_notes_template', codification_needed: false },
      { template_id: 'transcript_template', codification_needed: true },
    ],
  },
};

describe('the start body', () => {
  it("sends model_type, which the start call requires: pro by default, as the service's SDKs do", () => {
    const grant = { url: 'https://storage.example/bucket/', folderPath: 'txn-1/' };
    const { extra_data: _omitted, ...withoutExtra } = validParams;
    expect(startBody(withoutExtra as never, ['a.wav'], grant).model_type).toBe('pro');
    const lite = { ...validParams, extra_data: { model_type: 'lite' } };
    expect(startBody(lite as never, ['a.wav'], grant)).toMatchObject({
      model_type: 'lite',
      mode: 'dictation',
      batch_s3_url: 'https://storage.example/bucket/txn-1/',
      client_generated_files: ['a.wav'],
    });
  });
});

describe('transcription parameters (spec 2.7)', () => {
  it('lists the allowed values of the spec', () => {
    expect([...TEMPLATE_IDS].sort()).toEqual([
      'clinical_notes_template',
      'eka_emr_template',
      'transcript_template',
    ]);
    expect([...MODEL_TYPES]).toEqual(['pro', 'lite']);
    // The spec's eleven, and Odia from the service's published list.
    expect(INPUT_LANGUAGES).toHaveLength(12);
    expect(INPUT_LANGUAGES).toContain('pa');
    expect(INPUT_LANGUAGES).toContain('or');
  });

  it('accepts valid parameters unchanged', () => {
    expect(parseTranscriptionParams(validParams)).toBe(validParams);
    expect(transcriptionParamsIssues(validParams)).toEqual([]);
  });

  it('names every invalid field with the allowed values', () => {
    const bad = {
      extra_data: { model_type: 'ultra' },
      output_format: {
        input_language: ['en-IN', 'fr'],
        output_template: [
          { template_id: 'soap_template', codification_needed: false },
          { template_id: 'transcript_template', codification_needed: 'yes' },
        ],
      },
    };
    let thrown: unknown;
    try {
      parseTranscriptionParams(bad);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TranscriptionError);
    const error = thrown as TranscriptionError;
    expect(error.code).toBe('ERR_TRANSCRIPTION_PARAMS_INVALID');
    expect(error.issues).toHaveLength(4);
    expect(error.issues[0]).toBe('extra_data.model_type must be one of "pro", "lite"; got "ultra".');
    expect(error.issues[1]).toMatch(
      /^output_format\.input_language\[1\] must be one of "en-IN", .*"pa", "or"; got "fr"\.$/,
    );
    expect(error.issues[2]).toMatch(
      /^output_format\.output_template\[0\]\.template_id must be one of .*got "soap_template"/,
    );
    expect(error.issues[3]).toBe(
      'output_format.output_template[1].codification_needed must be true or false; got "yes".',
    );
    expect(error.message).toContain(error.issues[0]);
  });

  it('requires output_format with languages and templates, and refuses duplicate templates', () => {
    expect(transcriptionParamsIssues({})).toEqual([
      'output_format must be an object with "input_language" and "output_template".',
    ]);
    const duplicate = {
      output_format: {
        input_language: ['ta'],
        output_template: [
          { template_id: 'eka_emr_template', codification_needed: true },
          { template_id: 'eka_emr_template', codification_needed: true },
        ],
      },
    };
    expect(transcriptionParamsIssues(duplicate)).toEqual([
      'output_format.output_template[1].template_id "eka_emr_template" is requested twice; ask for each once.',
    ]);
    expect(
      transcriptionParamsIssues({ output_format: { input_language: [], output_template: [] } }),
    ).toHaveLength(2);
  });
});

describe('decodeSessionResult (spec 2.9)', () => {
  const emr = { patient: { complaints: ['fever'] }, note: 'टेस्ट' };
  const arrayResult = {
    data: {
      output: [
        {
          template_id: 'clinical_notes_template',
          value: b64('# Notes\n\nFever for **3 days** — ühm.'),
          type: 'markdown',
          name: 'Clinical notes',
          status: 'success',
          errors: [],
          warnings: [{ code: 'low_audio', message: 'quiet' }],
        },
        {
          template_id: 'eka_emr_template',
          value: b64(JSON.stringify(emr)),
          type: 'json',
          name: 'EMR',
          status: 'partial_success',
          errors: [{ field: 'vitals', message: 'not heard' }],
          warnings: [],
        },
        {
          template_id: 'transcript_template',
          value: b64('doctor: hello'),
          type: 'transcript',
          name: 'Transcript',
          status: 'success',
          errors: [],
          warnings: [],
        },
      ],
    },
  };

  it('decodes base64 as UTF-8, parses JSON items, keeps errors and warnings', () => {
    const decoded = decodeSessionResult(arrayResult, { expectedTemplates: [...TEMPLATE_IDS] });
    expect(decoded.shape).toBe('array');
    expect(decoded.complete).toBe(true);
    expect(decoded.status).toBe('partial_success');
    const [notes, record, transcript] = decoded.documents;
    expect(notes).toMatchObject({
      templateId: 'clinical_notes_template',
      format: 'markdown',
      text: '# Notes\n\nFever for **3 days** — ühm.',
      warnings: [{ code: 'low_audio', message: 'quiet' }],
      status: 'success',
      problems: [],
    });
    expect(record?.format).toBe('json');
    expect(record?.json).toEqual(emr);
    expect(record?.errors).toEqual([{ field: 'vitals', message: 'not heard' }]);
    expect(record?.status).toBe('partial_success');
    expect(transcript).toMatchObject({
      format: 'text',
      text: 'doctor: hello',
      json: undefined,
      name: 'Transcript',
    });
  });

  it('is success only when every item succeeded, failure when none did', () => {
    const allGood = structuredClone(arrayResult);
    for (const item of allGood.data.output) item.status = 'success';
    expect(decodeSessionResult(allGood).status).toBe('success');
    const allBad = structuredClone(arrayResult);
    for (const item of allBad.data.output) item.status = 'failure';
    expect(decodeSessionResult(allBad).status).toBe('failure');
  });

  it('reports items it cannot read instead of throwing', () => {
    const result = {
      data: {
        output: [
          {
            template_id: 'transcript_template',
            value: 'not base64!!',
            type: 'transcript',
            status: 'success',
          },
          { template_id: 'eka_emr_template', value: b64('{"broken": '), type: 'json', status: 'success' },
          {
            template_id: 'clinical_notes_template',
            value: Buffer.from([0xff, 0xfe]).toString('base64'),
            status: 'success',
          },
        ],
      },
    };
    const decoded = decodeSessionResult(result);
    expect(decoded.documents.map((document) => document.problems)).toEqual([
      ['The item value is not valid base64.'],
      ['The item says it is JSON, but its decoded text does not parse.'],
      ['The decoded item value is not UTF-8 text.'],
    ]);
    expect(decoded.documents.map((document) => document.status)).toEqual([
      'failure',
      'partial_success',
      'failure',
    ]);
    expect(decoded.documents[1]?.text).toBe('{"broken": ');
    expect(decoded.status).toBe('partial_success');
  });

  it('reads an untyped value as JSON only when it is a JSON object or array', () => {
    const decoded = decodeSessionResult({
      data: {
        output: [
          { template_id: 'eka_emr_template', value: b64('{"a": [1, 2]}'), status: 'success' },
          { template_id: 'clinical_notes_template', value: b64('{not json} but notes'), status: 'success' },
          { template_id: 'transcript_template', value: b64('42'), status: 'success' },
        ],
      },
    });
    expect(decoded.documents.map((document) => [document.format, document.json])).toEqual([
      ['json', { a: [1, 2] }],
      ['text', undefined],
      ['text', undefined],
    ]);
    expect(decoded.documents.every((document) => document.problems.length === 0)).toBe(true);
  });

  it('marks a result incomplete when expected templates are missing', () => {
    const partial = { data: { output: [arrayResult.data.output[2]] } };
    const decoded = decodeSessionResult(partial, {
      expectedTemplates: ['transcript_template', 'eka_emr_template'],
    });
    expect(decoded.complete).toBe(false);
    expect(decoded.missingTemplates).toEqual(['eka_emr_template']);
    expect(decoded.incompleteReasons).toEqual(['Missing templates: eka_emr_template.']);
    expect(decoded.status).toBe('partial_success');
  });

  it('reads the object shape with a base64 fhir member, and reports it incomplete without one', () => {
    const bundle = { resourceType: 'Bundle', type: 'document', entry: [] };
    const decoded = decodeSessionResult({ data: { output: { fhir: b64(JSON.stringify(bundle)) } } });
    expect(decoded).toMatchObject({ shape: 'fhir', complete: true, status: 'success' });
    expect(decoded.documents[0]).toMatchObject({ templateId: 'fhir', format: 'json', json: bundle });

    const pending = decodeSessionResult({ data: { output: {} } });
    expect(pending).toMatchObject({ shape: 'fhir', complete: false, status: 'failure', documents: [] });
    expect(pending.incompleteReasons).toEqual(['data.output has no "fhir" member yet.']);
  });

  it('reports a result without data.output as incomplete', () => {
    for (const result of [undefined, null, {}, { data: {} }, { data: { output: 'x' } }]) {
      const decoded = decodeSessionResult(result);
      expect(decoded.complete).toBe(false);
      expect(decoded.shape).toBe('missing');
      expect(decoded.incompleteReasons).toEqual(['The result has no data.output.']);
    }
    expect(decodeSessionResult({ data: { output: [] } }).incompleteReasons).toEqual([
      'data.output is an empty array.',
    ]);
  });
});
