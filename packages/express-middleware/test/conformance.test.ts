import { runConformance } from '@jwe-transport/test-support/server-conformance';
import { expressAdapters } from './conformance-adapter.js';

// Express 4 and 5 both run the whole suite.
for (const adapter of expressAdapters) runConformance(adapter);
