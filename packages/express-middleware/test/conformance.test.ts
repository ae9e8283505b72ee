import { runConformance } from '../../server-core/test/conformance/index.js';
import { expressAdapter } from './conformance-adapter.js';

runConformance(expressAdapter);
