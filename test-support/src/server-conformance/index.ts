/**
 * The conformance suite every server adapter runs: `runConformance(adapter)` inside a test file.
 * The adapter starts a real server on 127.0.0.1 with the routes described in `adapter.ts`.
 */
import { describe } from 'vitest';
import type { ConformanceAdapter } from './adapter.js';
import { jsonCases } from './json-cases.js';
import { uploadCases } from './upload-cases.js';

export {
  CASES,
  type CaseName,
  type ConformanceAdapter,
  type RunningServer,
  type ServerSetup,
} from './adapter.js';

export function runConformance(adapter: ConformanceAdapter): void {
  describe(`conformance: ${adapter.name}`, () => {
    describe('JSON', () => jsonCases(adapter));
    describe('uploads', () => uploadCases(adapter));
  });
}
