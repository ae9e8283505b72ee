import { runConformance } from '@jwe-transport/test-support/server-conformance';
import { webAdapter } from './adapters/web.js';

runConformance(webAdapter);
