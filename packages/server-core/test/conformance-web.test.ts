import { webAdapter } from './adapters/web.js';
import { runConformance } from './conformance/index.js';

runConformance(webAdapter);
