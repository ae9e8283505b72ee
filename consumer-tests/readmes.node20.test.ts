import { describeReadmes } from './support/describe-readmes.js';

// The machine's Node: 20 in CI.
describeReadmes('machine');
