// The runtimes suite's runner for Node, Deno and Bun: `<runtime> runtime-peer.mjs CODEC JOSE_FILE`
// loads jose by path and the codec either by path (CODEC a file) or as `own`: by its package name,
// so the runtime's own export conditions pick the build, as they do for its users. It runs
// runtime-workload.mjs and prints its rows, with the build's file and back end, as JSON.
import { Buffer } from 'node:buffer';
import { compareWithJose } from './runtime-workload.mjs';

const args = typeof Deno === 'undefined' ? process.argv.slice(2) : Deno.args;
const [codecFile, joseFile, quick] = args;
const toUrl = (path) => new URL(`file://${path}`).href;
const codecUrl = codecFile === 'own' ? import.meta.resolve('@jwe-transport/codec') : toUrl(codecFile);
const codec = await import(codecUrl);
const jose = await import(toUrl(joseFile));
const base64 = {
  encode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  decode: (text) => new Uint8Array(Buffer.from(text, 'base64')),
};
const rows = await compareWithJose({ codec, jose, base64, quick: quick === 'quick' });
console.log(
  JSON.stringify({
    file: codecUrl.slice(codecUrl.lastIndexOf('/') + 1),
    backend: codec.backendName,
    streaming: codec.streamingAvailable,
    rows,
  }),
);
