// The runtimes suite's runner for Node, Deno and Bun: `<runtime> runtime-peer.mjs CODEC_FILE JOSE_FILE`
// loads that codec build and jose by path, runs runtime-workload.mjs and prints its rows as JSON.
import { Buffer } from 'node:buffer';
import { compareWithJose } from './runtime-workload.mjs';

const args = typeof Deno === 'undefined' ? process.argv.slice(2) : Deno.args;
const [codecFile, joseFile, quick] = args;
const toUrl = (path) => new URL(`file://${path}`).href;
const codec = await import(toUrl(codecFile));
const jose = await import(toUrl(joseFile));
const base64 = {
  encode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  decode: (text) => new Uint8Array(Buffer.from(text, 'base64')),
};
const rows = await compareWithJose({ codec, jose, base64, quick: quick === 'quick' });
console.log(JSON.stringify({ backend: codec.backendName, rows }));
