// Runs under Deno or Bun: the codec scenarios against the reference service (which runs under
// Node), with the service's address and keys as the one argument. Prints the results as JSON.
import * as codec from '@jwe-transport/codec';
import { runCodecScenarios } from '../../scenarios/codec.js';

const [config] = globalThis.Deno ? Deno.args : Bun.argv.slice(2);
const results = await runCodecScenarios(JSON.parse(config));
console.log(
  JSON.stringify({
    resolved: import.meta.resolve('@jwe-transport/codec'),
    backend: codec.backendName,
    streaming: codec.streamingAvailable,
    ...results,
  }),
);
