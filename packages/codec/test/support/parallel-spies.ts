import { vi } from 'vitest';
import { nodeBackend } from '../../src/backend/node.js';
import { parallelSteps } from '../../src/parallel/node.js';

/**
 * Spies on the tag compare of the two-thread path and on every step that may AES-decrypt on the
 * codec thread: the two-thread steps, and the one-thread primitives (async and synchronous) that
 * a large call falls back to. Call `vi.restoreAllMocks()` after each test.
 */
export function twoThreadSpies() {
  const decryptAll = vi.spyOn(parallelSteps, 'decryptAll');
  const decryptBlocks = vi.spyOn(parallelSteps, 'decryptBlocks');
  const decodeHead = vi.spyOn(parallelSteps, 'decodeHead');
  return {
    compare: vi.spyOn(parallelSteps, 'compare'),
    decryptAll,
    decryptBlocks,
    decodeHead,
    decrypt: [
      decryptAll,
      decryptBlocks,
      decodeHead,
      vi.spyOn(nodeBackend, 'aesCbcDecrypt'),
      vi.spyOn(nodeBackend.sync!, 'aesCbcDecrypt'),
    ],
  };
}
