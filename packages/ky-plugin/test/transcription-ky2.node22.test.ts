import ky2 from 'ky2';
import { transcriptionSuite } from './transcription-suite.js';

// ky 2.x renamed prefixUrl to prefix.
transcriptionSuite('ky 2.x', (prefix) => ky2.create({ prefix }));
