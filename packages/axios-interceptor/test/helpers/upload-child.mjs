// Uploads one large file through the built axios interceptor in a process of its own, so that the
// memory it reports is the client's alone, and prints what happened as one JSON line.
//   node upload-child.mjs <http|fetch> <url> <file path> <shared key>
import { openAsBlob } from 'node:fs';
import { createRequire } from 'node:module';

const [adapter, url, path, key] = process.argv.slice(2);
const require = createRequire(new URL('../../package.json', import.meta.url));
const axios = require('axios');
const { useJwe } = await import(new URL('../../dist/index.node.js', import.meta.url).href);

const api = axios.create({ adapter });
useJwe(api, { key });
const form = new FormData();
form.set('file', await openAsBlob(path), 'scan.bin');

const baseline = process.memoryUsage().arrayBuffers;
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().arrayBuffers);
}, 5);
const { status, data } = await api.post(url, form);
clearInterval(sampler);
process.stdout.write(`${JSON.stringify({ status, body: data, arrayBuffersGrowth: peak - baseline })}\n`);
