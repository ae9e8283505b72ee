// Uploads one large file through the built interceptor in a process of its own, so that the
// memory it reports is the client's alone, and prints what happened as one JSON line.
//   node upload-child.mjs <request|fetch|global-fetch>[-plain] <url> <file path> <undici specifier> <shared key>
// A "-plain" mode sends the same form without the interceptor: the baseline of the client itself.
import { openAsBlob } from 'node:fs';
import { createRequire } from 'node:module';

const [modeArgument, url, path, undiciName, key] = process.argv.slice(2);
const plain = modeArgument.endsWith('-plain');
const mode = modeArgument.replace(/-plain$/, '');
const require = createRequire(new URL('../../package.json', import.meta.url));
const undici = await import(require.resolve(undiciName));
const { jweInterceptor } = await import(new URL('../../dist/index.js', import.meta.url).href);

const agent = new undici.Agent();
const dispatcher = plain ? agent : agent.compose(jweInterceptor({ key, origins: [new URL(url).origin] }));
const blob = await openAsBlob(path);
const form = new (mode === 'fetch' ? undici.FormData : FormData)();
form.set('file', blob, 'scan.bin');

const baseline = process.memoryUsage();
let peakArrayBuffers = baseline.arrayBuffers;
let peakRss = baseline.rss;
const sampler = setInterval(() => {
  const now = process.memoryUsage();
  peakArrayBuffers = Math.max(peakArrayBuffers, now.arrayBuffers);
  peakRss = Math.max(peakRss, now.rss);
}, 5);

let status;
let body;
if (mode === 'request') {
  const response = await undici.request(url, { dispatcher, method: 'POST', body: form });
  status = response.statusCode;
  body = await response.body.json();
} else {
  if (mode === 'global-fetch') undici.setGlobalDispatcher(dispatcher);
  const send = mode === 'fetch' ? (u, init) => undici.fetch(u, { ...init, dispatcher }) : fetch;
  const response = await send(url, { method: 'POST', body: form });
  status = response.status;
  body = await response.json();
}
clearInterval(sampler);
await dispatcher.close();
process.stdout.write(
  `${JSON.stringify({
    status,
    body,
    arrayBuffersGrowth: peakArrayBuffers - baseline.arrayBuffers,
    rssGrowth: peakRss - baseline.rss,
  })}\n`,
);
