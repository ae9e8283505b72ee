import { describeReadmes } from './support/describe-readmes.js';

describeReadmes('node24');
