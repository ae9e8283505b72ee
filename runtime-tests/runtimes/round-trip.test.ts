import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodecRun, expectCodecScenarios } from '../scenarios/expectations.js';
import { type ReferenceService, startReferenceService } from '../support/reference-service.js';
import { RUNTIMES, runScript } from '../support/runtimes.js';
import { BUILDS } from './builds.js';

let service: ReferenceService;
beforeAll(async () => {
  service = await startReferenceService();
});
afterAll(async () => {
  await service?.close();
});

describe.each(RUNTIMES)('a round trip from %s to the reference service under Node', (runtime) => {
  it.each(BUILDS[runtime])('$label', async (build) => {
    const { url, token, kid, key, wrongKey } = service;
    const run = await runScript<CodecRun & { resolved: string; streaming: boolean }>(
      runtime,
      'runtimes/scripts/round-trip.mjs',
      {
        condition: build.condition,
        loopback: true,
        args: [JSON.stringify({ url, token, kid, key, wrongKey })],
      },
    );
    expect(run.backend).toBe(build.backend);
    expect(run.streaming).toBe(build.streaming);
    expect(run.resolved).toMatch(build.file);
    await expectCodecScenarios(run, service);
  });
});
