import ky2 from 'ky2';
import type { KyLike } from './helpers/ky-suite.js';
import { largeUploadSuite } from './helpers/large-upload-suite.js';

largeUploadSuite('ky 2.x', ky2 as unknown as KyLike, 'form');
