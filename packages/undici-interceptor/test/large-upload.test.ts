import { largeUploadSuite } from './helpers/large-upload-suite.js';

largeUploadSuite('undici');
