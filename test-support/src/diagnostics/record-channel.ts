import { tracingChannel } from 'node:diagnostics_channel';

export type TraceEvent = 'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error';

/** One event as a subscriber saw it: the context's fields at that moment (the error as its parts). */
export interface RecordedEvent {
  event: TraceEvent;
  context: Record<string, unknown>;
}

export interface ChannelRecording {
  readonly events: RecordedEvent[];
  /** Everything subscribers were handed, as text: fields, error messages, stacks and causes. */
  serialized(): string;
  /** The recorded contexts (one per operation), in the order operations started. */
  contexts(): Record<string, unknown>[];
  stop(): void;
}

function errorParts(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 3) return error;
  return {
    ...error,
    name: error.name,
    message: error.message,
    stack: error.stack,
    cause: errorParts(error.cause, depth + 1),
  };
}

function snapshot(context: object): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...context };
  if ('error' in copy) copy.error = errorParts(copy.error);
  return copy;
}

/**
 * Subscribes to every event of the TracingChannel `name` (as an application would, with
 * `tracingChannel(name).subscribe`) and records what each one carried.
 */
export function recordChannel(name: string): ChannelRecording {
  const events: RecordedEvent[] = [];
  const seen: object[] = [];
  const on = (event: TraceEvent) => (message: unknown) => {
    const context = message as object;
    if (!seen.includes(context)) seen.push(context);
    events.push({ event, context: snapshot(context) });
  };
  const handlers = {
    start: on('start'),
    end: on('end'),
    asyncStart: on('asyncStart'),
    asyncEnd: on('asyncEnd'),
    error: on('error'),
  };
  const channel = tracingChannel(name);
  channel.subscribe(handlers);
  return {
    events,
    serialized: () => JSON.stringify(events),
    contexts: () => seen.map((context) => snapshot(context)),
    stop: () => channel.unsubscribe(handlers),
  };
}
