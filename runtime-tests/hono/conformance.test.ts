import { runConformance } from '../../packages/server-core/test/conformance/index.js';
import { runtimeHonoAdapter } from './runtime-adapter.js';

// Bun's server closes the connection right after an early answer (413, 400) to a streamed upload;
// the suite's client reads that answer before it reports the upload's failed writes.
runConformance(runtimeHonoAdapter('deno'));
runConformance(runtimeHonoAdapter('bun'));
