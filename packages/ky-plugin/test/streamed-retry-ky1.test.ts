import ky from 'ky';
import { streamedRetrySuite } from './helpers/streamed-retry-suite.js';

streamedRetrySuite('ky 1.x', ky);
