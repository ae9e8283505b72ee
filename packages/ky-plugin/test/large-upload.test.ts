import ky from 'ky';
import { largeUploadSuite } from './helpers/large-upload-suite.js';

largeUploadSuite('ky 1.x', ky, 'blob');
