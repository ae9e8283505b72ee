import { largeUploadSuite } from './helpers/large-upload-suite.js';

// undici 8 (Node >= 22.19): the undici.request path; fetch's own buffering is covered with undici 7.
largeUploadSuite('undici8', []);
