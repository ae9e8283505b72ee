import { runConformance } from '@jwe-transport/test-support/server-conformance';
import { expressAdapter } from './conformance-adapter.js';

runConformance(expressAdapter);
