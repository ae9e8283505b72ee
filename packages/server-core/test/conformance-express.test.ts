import { expressAdapter } from './adapters/express.js';
import { runConformance } from './conformance/index.js';

runConformance(expressAdapter);
