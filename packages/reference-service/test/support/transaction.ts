import type { Transaction } from '../../src/workflow/transactions.js';

/** A completed, empty transaction of client `alpha`: what the delivery tests hand the Deliverer. */
export function completedTransaction(id: string, folder = id): Transaction {
  const now = new Date().toISOString();
  return {
    id,
    owner: 'alpha',
    folder,
    state: 'completed',
    files: new Map(),
    objects: new Map(),
    request: undefined,
    createdAt: now,
    completedAt: now,
    output: undefined,
  };
}
