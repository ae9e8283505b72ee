import { type AudioFileRecord, buildOutput, type OutputItem } from './documents.js';
import type { SessionParams } from './params.js';

export interface Session {
  id: string;
  params: SessionParams;
  files: AudioFileRecord[];
  state: 'processing' | 'completed';
  createdAt: string;
  completedAt: string | undefined;
  output: OutputItem[] | undefined;
}

/** Sessions in memory; each completes after `processingMs` and then calls `onComplete`. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #processingMs: number;
  readonly #onComplete: (session: Session) => void;

  constructor(processingMs: number, onComplete: (session: Session) => void) {
    this.#processingMs = processingMs;
    this.#onComplete = onComplete;
  }

  has(id: string): boolean {
    return this.#sessions.has(id);
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  start(id: string, params: SessionParams, files: AudioFileRecord[]): Session {
    const session: Session = {
      id,
      params,
      files,
      state: 'processing',
      createdAt: new Date().toISOString(),
      completedAt: undefined,
      output: undefined,
    };
    this.#sessions.set(id, session);
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.complete(id);
    }, this.#processingMs);
    this.#timers.add(timer);
    return session;
  }

  /** Completes a session now (also what the timer does). */
  complete(id: string): Session | undefined {
    const session = this.#sessions.get(id);
    if (!session || session.state === 'completed') return session;
    session.output = buildOutput(id, session.params, session.files);
    session.state = 'completed';
    session.completedAt = new Date().toISOString();
    this.#onComplete(session);
    return session;
  }

  /** Stops pending completions (on shutdown). */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
