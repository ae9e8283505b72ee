#!/usr/bin/env node
// From client credentials to decoded documents, against the reference service (examples/service):
// log in, subscribe a webhook, upload audio, receive the signed v2rx.completed notification, fetch
// the session result and decode its documents. Run after the root `pnpm build`:
//   pnpm --dir examples/workflow start
// With SERVICE_URL, CLIENT_ID and CLIENT_SECRET set it talks to that service instead of starting one.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  clientCredentialsLogin,
  createTokenSession,
  createWebhookSubscription,
  kyAuth,
  pollSessionResult,
  refreshTokenExchange,
  uploadAudio,
} from '@jwe-transport/ky-plugin';
import ky from 'ky';
import { startReceiver } from './receiver.mjs';
import { startReferenceService } from './service-process.mjs';
import { sineWav } from './wav.mjs';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Runs the whole workflow and resolves with what happened: the uploaded files (name, size,
 * sha256), the notification event, the HTTP status of the result, and the decoded result.
 */
export async function runWorkflow({ log = console.log, serviceUrl, clientId, clientSecret } = {}) {
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
          ACCESS_TOKENS: randomBytes(18).toString('base64url'),
          DOCS_DIR: docsDir,
          PROCESSING_MS: '300',
        },
        { log: (line) => log(`  [service] ${line.replace(/secret: \S+/, 'secret: <hidden>')}`) },
      );
      cleanup.push(() => service.stop());
      baseUrl = service.url;
    }
    log(`1. Service: ${baseUrl}`);

    // 2. A webhook receiver, with the signing key we will give the subscription.
    const signingKey = randomBytes(24).toString('base64url');
    const receiver = await startReceiver({ signingKey, log: (line) => log(`  [receiver] ${line}`) });
    cleanup.push(() => receiver.close());
    log(`2. Webhook receiver: ${receiver.url}`);

    // 3. Log in with the client credentials; kyAuth() adds the bearer token to every call and renews it.
    const session = createTokenSession({
      login: clientCredentialsLogin({ baseUrl, clientId, clientSecret }),
      refresh: refreshTokenExchange({ baseUrl }),
    });
    const api = ky.create({ prefixUrl: baseUrl }).extend(kyAuth({ session, ky }));
    await session.accessToken();
    log(`3. Logged in as ${clientId}; the access token expires in ${session.tokens?.expires_in ?? '?'} s`);

    // 4. Subscribe the receiver to v2rx.completed (once per receiver, spec 4.4).
    const subscription = await createWebhookSubscription(api, { endpoint: receiver.url, signingKey });
    log(`4. Webhook subscription ${subscription.id}: ${subscription.status}`);

    // 5. Upload two audio files: one from memory, one from disk by path.
    const audioDir = await mkdtemp(join(tmpdir(), 'workflow-example-audio-'));
    cleanup.push(() => rm(audioDir, { recursive: true, force: true }));
    const first = sineWav({ seconds: 1, hz: 440 });
    const second = sineWav({ seconds: 0.5, hz: 660 });
    const secondPath = join(audioDir, 'follow-up.wav');
    await writeFile(secondPath, second);
    const uploaded = [
      { name: 'consultation.wav', size: first.length, sha256: sha256(first) },
      { name: 'follow-up.wav', size: second.length, sha256: sha256(second) },
    ];
    const transactionId = `example-${randomBytes(6).toString('hex')}`;
    const templates = ['clinical_notes_template', 'eka_emr_template', 'transcript_template'];
    const entries = await uploadAudio(
      api,
      [{ name: 'consultation.wav', data: first }, { path: secondPath }],
      {
        transaction_id: transactionId,
        action: 'scribe-v2',
        extra_data: { mode: 'dictation', model_type: 'pro' },
        output_format: {
          input_language: ['en-IN'],
          output_template: templates.map((template_id) => ({ template_id, codification_needed: false })),
        },
      },
    );
    for (const entry of entries)
      log(`5. Uploaded ${entry.file_name}: ${entry.status} (transaction ${entry.transaction_id})`);

    // 6. Wait for the signed notification, then fetch the result by its session id.
    const event = await receiver.notification(transactionId);
    log(
      `6. Notification: ${event.event}, session ${event.sessionId}, status ${event.status}, at ${event.occurredAt}`,
    );
    const { httpStatus, decoded } = await pollSessionResult(api, event.sessionId, {
      expectedTemplates: templates,
      intervalMs: 500,
    });
    log(`7. Result: HTTP ${httpStatus}, ${decoded.status}, complete: ${decoded.complete}`);
    for (const document of decoded.documents) {
      log(
        `\n--- ${document.name ?? document.templateId} (${document.templateId}, ${document.format}, ${document.status})`,
      );
      log(document.format === 'json' ? JSON.stringify(document.json, null, 2) : document.text);
      for (const warning of document.warnings) log(`    warning: ${JSON.stringify(warning)}`);
      for (const error of document.errors) log(`    error: ${JSON.stringify(error)}`);
    }
    return { uploaded, event, httpStatus, decoded, subscription };
  } finally {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { SERVICE_URL, CLIENT_ID, CLIENT_SECRET } = process.env;
  runWorkflow({ serviceUrl: SERVICE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }).catch(
    (error) => {
      console.error(`\nThe workflow failed: ${error.message}${error.code ? ` (${error.code})` : ''}`);
      process.exitCode = 1;
    },
  );
}
