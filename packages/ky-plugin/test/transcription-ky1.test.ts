import ky from 'ky';
import { transcriptionSuite } from './transcription-suite.js';

// ky 1.x resolves helper paths against prefixUrl.
transcriptionSuite('ky 1.x', (prefix) => ky.create({ prefixUrl: prefix }));
