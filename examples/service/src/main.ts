// `pnpm --dir examples/service start`: configuration from the environment (see README.md).
import { configFromEnv, startService } from '@jwe-transport/reference-service';

// Everything this process creates (documents, audio, partial uploads) is private to its user.
process.umask(0o077);
const config = configFromEnv(process.env);
const log = (line: string) => console.log(line);
const service = await startService(config, { log });
const { generated } = config;
if (generated.client) {
  console.log(
    `No client configured (CLIENT_ID/CLIENT_SECRET, CLIENTS, CLIENTS_FILE); this run accepts client id "${generated.client.clientId}" with secret: ${generated.client.clientSecret}`,
  );
}
if (generated.token) console.log(`ACCESS_TOKENS was not set; this run accepts the token: ${generated.token}`);
if (generated.key) {
  // Printed only because it was generated for this run; keys from JWE_KEYS are never printed.
  console.log(
    `JWE_KEYS was not set; this run uses kid "${generated.key.kid}" with shared key: ${generated.key.shared}`,
  );
}
console.log(`Kids: ${Object.keys(config.keys).join(', ')}. Documents are kept in ${config.docsDir}`);
console.log(`jwe-transport reference service listening on ${service.url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    service.close().then(() => process.exit(0));
  });
}
