import { describeEntries } from './support/describe-entries.js';

describeEntries('node24');
