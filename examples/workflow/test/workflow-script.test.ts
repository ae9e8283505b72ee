import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorkflow, type RunningService, startService, type Workflow } from '../../service/src/index.js';
import { runWorkflow } from '../workflow.mjs';

const CLIENT_ID = 'script-client';
const CLIENT_SECRET = 'script-client-secret-42';
let service: RunningService;
let workflow: Workflow;
let docsDir: string;

beforeAll(async () => {
  docsDir = await mkdtemp(join(tmpdir(), 'workflow-script-'));
  workflow = createWorkflow({ clients: { [CLIENT_ID]: CLIENT_SECRET }, processingMs: 50 });
  service = await startService(
    {
      keys: { k: 'script-shared-k1' },
      tokens: ['unused-static'],
      port: 0,
      docsDir,
      uploadLimit: '5mb',
      generated: {},
    },
    { workflow },
  );
});
afterAll(async () => {
  await workflow.close();
  await service.close();
  await rm(docsDir, { recursive: true, force: true });
});

it('the example script goes from credentials to decoded documents that describe exactly what it uploaded', async () => {
  const lines: string[] = [];
  const run = await runWorkflow({
    serviceUrl: service.url,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    log: (line) => lines.push(line),
  });
  expect(run.subscription.status).toBe('success');
  expect(run.event.event).toBe('v2rx.completed');
  expect(run.httpStatus).toBe(200);
  expect(run.decoded).toMatchObject({ complete: true, status: 'success', missingTemplates: [] });
  expect(run.decoded.documents.map((document) => document.templateId)).toEqual([
    'clinical_notes_template',
    'eka_emr_template',
    'transcript_template',
  ]);
  const emr = run.decoded.documents[1]?.json as { session_id: string; files: unknown[] };
  expect(emr.session_id).toBe(run.event.sessionId);
  expect(emr.files).toEqual(run.uploaded.map((file) => ({ ...file, content_type: 'audio/wav' })));
  // WAV header (44 bytes) + 16-bit mono samples at 16 kHz: 1 s and 0.5 s.
  expect(run.uploaded.map((file) => file.size)).toEqual([44 + 32_000, 44 + 16_000]);
  for (const file of run.uploaded) expect(lines.join('\n')).toContain(file.sha256);
  expect(workflow.deliveries.records).toEqual([expect.objectContaining({ signed: true, status: 200 })]);
});

it('a wrong client secret fails with the message of spec 7', async () => {
  const failure = await runWorkflow({
    serviceUrl: service.url,
    clientId: CLIENT_ID,
    clientSecret: 'wrong-secret',
    log: () => {},
  }).catch((error: unknown) => error);
  expect((failure as Error).message).toMatch(/client id and client secret/);
});
