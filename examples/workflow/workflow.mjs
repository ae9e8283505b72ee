#!/usr/bin/env node
// From client credentials to decoded documents over the documented wire: log in, subscribe a
// webhook receiver (its own process), ask for an upload grant, POST each audio file to the
// storage, start the transaction, wait for the signed v2rx.completed, fetch the result and decode
// its documents. Run after the root `pnpm build`:
//   pnpm --dir examples/workflow start
// With SERVICE_URL, CLIENT_ID and CLIENT_SECRET set it talks to that service instead of starting
// the reference service; RECEIVER_PUBLIC_URL then names the address the service can reach.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServiceClient } from '@jwe-transport/service-client';
import { audioFileFromPath } from '@jwe-transport/service-client/node';
import { startReceiverProcess, startReferenceService } from './processes.mjs';
import { sineWav } from './wav.mjs';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const TEMPLATES = ['clinical_notes_template', 'eka_emr_template', 'transcript_template'];

/** Rejects after `ms` with the spec 7 advice, unless `promise` settles first; leaves no timer behind. */
function within(promise, ms, message) {
  let timer;
  const timeout = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs the whole workflow and resolves with what happened: the files uploaded (name, size,
 * sha256), the receiver's event line, the result's HTTP status and the decoded documents.
 */
export async function runWorkflow({
  log = console.log,
  serviceUrl,
  clientId,
  clientSecret,
  receiverPublicUrl,
  webhookTimeoutMs = 60_000,
} = {}) {
  const cleanup = [];
  try {
    // 1. The service: the one given, or the reference service on a free port.
    let baseUrl = serviceUrl;
    if (!baseUrl) {
      clientId = 'example-client';
      clientSecret = randomBytes(18).toString('base64url');
      const docsDir = await mkdtemp(join(tmpdir(), 'workflow-example-docs-'));
      cleanup.push(() => rm(docsDir, { recursive: true, force: true }));
      const service = await startReferenceService(
        {
          CLIENT_ID: clientId,
          CLIENT_SECRET: clientSecret,
          DOCS_DIR: docsDir,
          PROCESSING_MS: '300',
          WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
        },
        { log: (line) => log(`  [service] ${line.replace(/secret: \S+/, 'secret: <hidden>')}`) },
      );
      cleanup.push(() => service.stop());
      baseUrl = service.url;
    }
    log(`1. Service: ${baseUrl}`);

    // 2. The webhook receiver, its own process, with the signing key the subscription gets.
    const signingKey = randomBytes(24).toString('base64url');
    const receiver = await startReceiverProcess(
      { SIGNING_KEY: signingKey },
      { log: (line) => log(`  [receiver] ${line}`) },
    );
    cleanup.push(() => receiver.stop());
    const endpoint = receiverPublicUrl ?? receiver.url;
    log(`2. Webhook receiver: ${receiver.url}`);

    // 3. The client logs in on its first call and refreshes by itself.
    const client = createServiceClient({ baseUrl, clientId, clientSecret });
    const subscription = await client.subscribeWebhook({
      endpoint,
      signingKey,
      protocol: new URL(endpoint).protocol === 'https:' ? 'https' : 'http',
    });
    log(`3. Logged in as ${clientId}; webhook subscription ${subscription.id}: ${subscription.status}`);

    // 4. Two audio files on disk, streamed to the storage by the client.
    const audioDir = await mkdtemp(join(tmpdir(), 'workflow-example-audio-'));
    cleanup.push(() => rm(audioDir, { recursive: true, force: true }));
    const recordings = [
      { name: 'consultation.wav', bytes: sineWav({ seconds: 1, hz: 440 }) },
      { name: 'follow-up.wav', bytes: sineWav({ seconds: 0.5, hz: 660 }) },
    ];
    const files = [];
    for (const { name, bytes } of recordings) {
      await writeFile(join(audioDir, name), bytes);
      files.push(await audioFileFromPath(join(audioDir, name)));
    }
    const uploaded = recordings.map(({ name, bytes }) => ({
      name,
      size: bytes.length,
      sha256: sha256(bytes),
    }));
    const transactionId = `example-${randomBytes(6).toString('hex')}`;
    const started = await client.transcribe(
      files,
      {
        transaction_id: transactionId,
        action: 'scribe-v2',
        extra_data: { mode: 'dictation', model_type: 'pro' },
        output_format: {
          input_language: ['en-IN'],
          output_template: TEMPLATES.map((template_id) => ({ template_id, codification_needed: false })),
        },
      },
      { additionalData: { source: 'examples/workflow' } },
    );
    for (const file of uploaded) log(`4. Uploaded ${file.name}: ${file.size} bytes, sha256 ${file.sha256}`);
    log(`   Started transaction ${started.transactionId}: ${started.status}`);

    // 5. The receiver prints the verified event; then the result is fetched by its transaction id.
    const event = await within(
      receiver.event(transactionId),
      webhookTimeoutMs,
      `Webhook not received for ${transactionId} within ${webhookTimeoutMs} ms: check that ${endpoint} is reachable from the service and correctly registered.`,
    );
    log(`5. Receiver printed: ${JSON.stringify(event)}`);
    const result = await client.waitForResult(event.transaction_id, {
      expectedTemplates: TEMPLATES,
      intervalMs: 200,
    });
    const { decoded } = result;
    log(`6. Result: HTTP ${result.httpStatus}, ${decoded.status}, complete: ${decoded.complete}`);
    log(`   additional_data: ${JSON.stringify(result.result.data?.additional_data)}`);
    for (const document of decoded.documents) {
      log(
        `\n--- ${document.name ?? document.templateId} (${document.templateId}, ${document.format}, ${document.status})`,
      );
      log(document.format === 'json' ? JSON.stringify(document.json, null, 2) : document.text);
      for (const warning of document.warnings) log(`    warning: ${JSON.stringify(warning)}`);
      for (const error of document.errors) log(`    error: ${JSON.stringify(error)}`);
    }
    return {
      uploaded,
      event,
      httpStatus: result.httpStatus,
      result: result.result,
      decoded,
      subscription,
      started,
    };
  } finally {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { SERVICE_URL, CLIENT_ID, CLIENT_SECRET, RECEIVER_PUBLIC_URL } = process.env;
  runWorkflow({
    serviceUrl: SERVICE_URL,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    receiverPublicUrl: RECEIVER_PUBLIC_URL,
  }).catch((error) => {
    console.error(`\nThe workflow failed: ${error.message}${error.code ? ` (${error.code})` : ''}`);
    process.exitCode = 1;
  });
}
