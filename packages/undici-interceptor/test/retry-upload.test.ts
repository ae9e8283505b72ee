import * as undici from 'undici';
import { retryUploadSuite } from './helpers/retry-upload-suite.js';

retryUploadSuite('undici 7', undici);
