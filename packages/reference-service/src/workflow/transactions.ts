import { type AudioFileRecord, buildOutput, type OutputItem } from './documents.js';
import type { StartedRequest } from './start-request.js';

/** One transaction: granted an upload folder, then started, then completed after `processingMs`. */
export interface Transaction {
  id: string;
  /** The client that asked for the grant; only its tokens see the transaction. */
  owner: string;
  /** `folderPath` of the grant: where its files are kept in storage. */
  folder: string;
  state: 'granted' | 'processing' | 'completed';
  /** Audio files received by the storage endpoint, by name: what start may name. */
  files: Map<string, AudioFileRecord>;
  /**
   * Other objects stored in the folder, by name: the `<txn_id>.json` manifest some SDKs post beside
   * the audio is kept, but it is not audio and never counts as one.
   */
  objects: Map<string, AudioFileRecord>;
  request: StartedRequest | undefined;
  createdAt: string;
  completedAt: string | undefined;
  output: OutputItem[] | undefined;
}

export type Lookup = { kind: 'none' } | { kind: 'foreign' } | { kind: 'own'; transaction: Transaction };

/** Transaction ids are one path segment of the storage folder, so they are kept to safe characters. */
export const TXN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Transactions in memory; each started one completes after `processingMs` and then calls `onComplete`. */
export class TransactionStore {
  readonly #items = new Map<string, Transaction>();
  readonly #timers = new Set<NodeJS.Timeout>();
  /** Per transaction, the file names whose upload is being moved into its folder, with how many. */
  readonly #storing = new WeakMap<Transaction, Map<string, number>>();

  constructor(
    private readonly processingMs: number,
    private readonly onComplete: (transaction: Transaction) => void,
  ) {}

  lookup(id: string, owner: string): Lookup {
    const transaction = this.#items.get(id);
    if (!transaction) return { kind: 'none' };
    return transaction.owner === owner ? { kind: 'own', transaction } : { kind: 'foreign' };
  }

  /** Any client's transaction by id, for the storage endpoint (whose caller is the signed policy). */
  get(id: string): Transaction | undefined {
    return this.#items.get(id);
  }

  create(id: string, owner: string): Transaction {
    const transaction: Transaction = {
      id,
      owner,
      folder: `${id}/`,
      state: 'granted',
      files: new Map(),
      objects: new Map(),
      request: undefined,
      createdAt: new Date().toISOString(),
      completedAt: undefined,
      output: undefined,
    };
    this.#items.set(id, transaction);
    return transaction;
  }

  /**
   * Marks `name` as being stored in `transaction` (its file is moving into the folder, its record
   * not yet kept) until the returned release is called: start must not take it as uploaded meanwhile.
   */
  storing(transaction: Transaction, name: string): () => void {
    const names = this.#storing.get(transaction) ?? new Map<string, number>();
    this.#storing.set(transaction, names);
    names.set(name, (names.get(name) ?? 0) + 1);
    return () => {
      const left = (names.get(name) ?? 1) - 1;
      if (left > 0) names.set(name, left);
      else names.delete(name);
    };
  }

  /** Whether an upload of `name` into `transaction` has passed its checks but is not recorded yet. */
  isStoring(transaction: Transaction, name: string): boolean {
    return this.#storing.get(transaction)?.has(name) ?? false;
  }

  /** The names of the files still arriving in this transaction's folder. */
  storingNames(transaction: Transaction): string[] {
    return [...(this.#storing.get(transaction)?.keys() ?? [])];
  }

  start(transaction: Transaction, request: StartedRequest): void {
    transaction.request = request;
    transaction.state = 'processing';
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.complete(transaction.id);
    }, this.processingMs);
    this.#timers.add(timer);
  }

  /** Completes a transaction now (also what the timer does). */
  complete(id: string): Transaction | undefined {
    const transaction = this.#items.get(id);
    if (!transaction?.request || transaction.state !== 'processing') return transaction;
    const files = transaction.request.files.map((name) => transaction.files.get(name)!);
    transaction.output = buildOutput(id, transaction.request, files);
    transaction.state = 'completed';
    transaction.completedAt = new Date().toISOString();
    this.onComplete(transaction);
    return transaction;
  }

  /** Stops pending completions (on shutdown). */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
