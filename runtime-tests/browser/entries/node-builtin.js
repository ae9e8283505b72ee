// Imports a Node built-in on purpose: both bundlers must refuse it (see bundle.test.ts).
import { createHash } from 'node:crypto';

globalThis.jweScenarios = { name: 'node-builtin', run: () => createHash('sha256').digest('hex') };
