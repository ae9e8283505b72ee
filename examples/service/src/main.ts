// `pnpm --dir examples/service start`: configuration from the environment (see README.md).
import { configFromEnv } from './config.js';
import { startService } from './server.js';
import { createWorkflow, workflowConfigFromEnv } from './workflow/index.js';

const config = configFromEnv(process.env);
const log = (line: string) => console.log(line);
const workflowSetup = workflowConfigFromEnv(process.env, {
  staticTokens: config.tokens,
  keys: config.keys,
  log,
});
const workflow = createWorkflow(workflowSetup.config);
const service = await startService(config, { log, workflow });
if (workflowSetup.generated) {
  console.log(
    `CLIENT_ID/CLIENT_SECRET were not set; this run accepts client id "${workflowSetup.generated.clientId}" with secret: ${workflowSetup.generated.clientSecret}`,
  );
}

if (config.generated.token)
  console.log(`ACCESS_TOKENS was not set; this run accepts the token: ${config.generated.token}`);
if (config.generated.key) {
  // Printed only because it was generated for this run; keys from JWE_KEYS are never printed.
  console.log(
    `JWE_KEYS was not set; this run uses kid "${config.generated.key.kid}" with shared key: ${config.generated.key.shared}`,
  );
}
console.log(`Kids: ${Object.keys(config.keys).join(', ')}. Documents are kept in ${config.docsDir}`);
console.log(`jwe-transport reference service listening on ${service.url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    Promise.all([service.close(), workflow.close()]).then(() => process.exit(0));
  });
}
