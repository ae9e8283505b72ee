import { describeEntries } from './support/describe-entries.js';

// The machine's Node: 20 in CI.
describeEntries('machine');
