// Runs under Deno or Bun with the build the runtime picks: streams the file named by the first
// argument into an envelope file with encryptFileStream, then that envelope back into a copy with
// decryptFileStream. Prints what it did as JSON; the Node test checks the files themselves.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import * as codec from '@jwe-transport/codec';

const [setup] = globalThis.Deno ? Deno.args : Bun.argv.slice(2);
const { file, envelope, copy, key, kid } = JSON.parse(setup);

const out = await open(envelope, 'w');
let envelopeBytes = 0;
for await (const chunk of codec.encryptFileStream(createReadStream(file), key, { kid })) {
  await out.write(chunk);
  envelopeBytes += chunk.byteLength;
}
await out.close();

const opened = await codec.decryptFileStream(createReadStream(envelope), key, { to: copy });
console.log(
  JSON.stringify({
    resolved: import.meta.resolve('@jwe-transport/codec'),
    backend: codec.backendName,
    streaming: codec.streamingAvailable,
    envelopeBytes,
    bytes: opened.bytes,
    kid: opened.kid ?? null,
    spilled: opened.spilled,
  }),
);
