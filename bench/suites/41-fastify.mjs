// Fastify plugin throughput: 1 KiB encrypted JSON requests and sealed answers through
// @jwe-transport/fastify-plugin, against a route of the same app that uses Fastify's own JSON
// parsing without encryption, and against one that opens and seals the envelope with the codec
// by hand (the plugin's own cost apart from the crypto), in the same run. The server runs in a
// child process.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { announce, byHand, byHandRow, compareRoutes, frameworkRow, KEY, KID, manyRow } from './http-lib.mjs';
import { report } from './lib.mjs';

const packageJson = new URL('../../packages/fastify-plugin/package.json', import.meta.url);

async function serve() {
  const Fastify = createRequire(packageJson)('fastify');
  const { jwe } = await import(new URL('../../packages/fastify-plugin/dist/index.js', import.meta.url).href);
  const app = Fastify();
  // The plugin in its own context: the plain route keeps Fastify's own parser.
  await app.register(async (encrypted) => {
    await encrypted.register(jwe, { keys: { [KID]: KEY } });
    encrypted.post('/jwe', async (request) => request.body);
  });
  app.post('/plain', async (request) => request.body);
  // The same work written by hand with the codec, to separate the plugin's own cost from the crypto.
  // The envelope reaches the codec as text, as it does in the plugin: the codec's own parse of it
  // is strict (a duplicated member is refused), which Fastify's JSON parser is not.
  const { open, seal, headers } = await byHand();
  await app.register(async (byHandScope) => {
    byHandScope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) =>
      done(null, text),
    );
    byHandScope.post('/by-hand', async (request, reply) => {
      const answer = await seal(await open(request.body));
      reply.headers(headers);
      return answer;
    });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  announce(app.server.address().port);
}

if (process.argv[2] === 'serve') {
  await serve();
} else {
  const result = await compareRoutes(fileURLToPath(import.meta.url), packageJson, { many: true });
  report('Fastify plugin (packages/fastify-plugin)', [
    byHandRow('Fastify 5', 'app.register(jwe)', "Fastify's body as text", result),
    manyRow('Fastify 5', 'app.register(jwe)', result),
    frameworkRow('Fastify 5', 'app.register(jwe)', "Fastify's JSON parser", result),
  ]);
}
