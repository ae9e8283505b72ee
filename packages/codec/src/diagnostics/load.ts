/** The part of a `node:diagnostics_channel` channel this module uses. */
export interface Channel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
  runStores?<T>(message: unknown, fn: () => T): T;
}

interface DiagnosticsChannel {
  channel(name: string): Channel;
}

interface ProcessLike {
  getBuiltinModule?(id: string): unknown;
}

let loaded: DiagnosticsChannel | null | undefined;

/**
 * `node:diagnostics_channel` where the runtime has it (Node >= 20.16, Deno and Bun with
 * `process.getBuiltinModule`), else `null`. No static import: browser bundles must not see a
 * Node built-in, and looking the module up at run time keeps every bundler out of it.
 */
export function diagnosticsChannel(): DiagnosticsChannel | null {
  if (loaded === undefined) loaded = lookUp();
  return loaded;
}

function lookUp(): DiagnosticsChannel | null {
  try {
    const process = (globalThis as { process?: ProcessLike }).process;
    const module = process?.getBuiltinModule?.('node:diagnostics_channel') as DiagnosticsChannel | undefined;
    return typeof module?.channel === 'function' ? module : null;
  } catch {
    // A runtime that has getBuiltinModule but refuses this module: tracing is off, nothing else changes.
    return null;
  }
}
