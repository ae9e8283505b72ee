import { runConformance } from '@jwe-transport/test-support/server-conformance';
import { runtimeHonoAdapter } from './runtime-adapter.js';

// Bun's server closes the connection right after an early answer (413, 400) to a streamed upload;
// the suite's client reads that answer before it reports the upload's failed writes.
runConformance(runtimeHonoAdapter('deno'));
runConformance(runtimeHonoAdapter('bun'));
