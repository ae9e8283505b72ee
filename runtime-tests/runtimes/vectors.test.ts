import { describe, expect, it } from 'vitest';
import { loadMalformed, loadResponses, loadVectors } from '../../test-vectors/index.js';
import { RUNTIMES, runScript } from '../support/runtimes.js';
import { BUILDS } from './builds.js';

interface VectorsReport {
  backend: string;
  resolved: string;
  vectors: unknown[];
  malformed: unknown[];
  responses: unknown[];
}

/** What the script must print for each vector: the same bytes, values and envelopes as the files. */
function expectedReport() {
  return {
    vectors: loadVectors().map((v) => ({
      name: v.name,
      plaintext: v.plaintext.base64,
      kid: v.kid ?? null,
      headerSource: 'protected',
      compact: v.plaintext.base64,
      ...(v.kind === 'json' ? { json: v.json } : {}),
      ...(v.kind === 'file' ? { file: v.file!.base64 } : {}),
      ...(v.producer === 'jwe-transport' ? { reencrypted: v.envelope } : {}),
    })),
    malformed: loadMalformed().map((c) => ({ name: c.name, code: c.code })),
    responses: loadResponses().map((r) => ({
      name: r.name,
      outcomes: Object.fromEntries(
        (['infer', 'rfc', 'reject'] as const).map((policy) => {
          const outcome = r.expected[policy];
          return [
            policy,
            'code' in outcome
              ? { code: outcome.code }
              : {
                  headerSource: outcome.headerSource,
                  plaintext: r.plaintext.base64,
                  kid: r.envelope.kid ?? null,
                },
          ];
        }),
      ),
    })),
  };
}

describe.each(RUNTIMES)('the shared test vectors under %s', (runtime) => {
  it.each(BUILDS[runtime])('$label', async (build) => {
    const report = await runScript<VectorsReport>(runtime, 'runtimes/scripts/vectors.mjs', {
      condition: build.condition,
    });
    expect(report.backend).toBe(build.backend);
    expect(report.resolved).toMatch(build.file);
    const expected = expectedReport();
    expect(report.vectors).toHaveLength(expected.vectors.length);
    expect(report).toEqual({ backend: report.backend, resolved: report.resolved, ...expected });
  });
});
