import * as undici8 from 'undici8';
import { expect, it, vi } from 'vitest';

// The MockAgent helper's tests (undici.test.ts) again with undici 8 as the `undici` that both the
// helper and the tests import: undici 8 needs Node >= 22.19, so this file runs only in the Node 24 pass.
vi.mock('undici', async () => await import('undici8'));

const { createJweMockAgent, JweMockAgent } = await import('../src/undici/index.js');
await import('./undici.test.js');

it('builds the helper on undici 8', async () => {
  const undici = await import('undici');
  expect(undici.MockAgent).toBe(undici8.MockAgent);
  const agent = createJweMockAgent([]);
  expect(agent).toBeInstanceOf(JweMockAgent);
  expect(agent).toBeInstanceOf(undici8.MockAgent);
  await agent.close();
});
