import type { JweServer, Opened } from '@jwe-transport/server-core';
import type { Context } from 'hono';

/** Answers sealed by `c.json` itself, which the middleware must not seal again. */
export const sealedByJson = new WeakSet<Response>();

/**
 * Makes `c.json(value)` write the engine's decision as it builds the answer (a sealed body where
 * the engine can seal without a promise), so the answer stays the runtime's cheap response and
 * is not read back and rebuilt afterwards. Uses only `c.json`, `c.header` and `c.body`.
 */
export function sealJsonAnswers(c: Context, server: JweServer, opened: Opened): void {
  // Where sealing needs a promise (WebCrypto), the middleware seals the built answer instead.
  if (!server.sealsSynchronously) return;
  const json = c.json;
  c.json = ((value: unknown, ...rest: unknown[]) => {
    const init = rest[0];
    const status = typeof init === 'number' ? init : ((init as ResponseInit | undefined)?.status ?? 200);
    const answer = server.answer(opened, status, 'application/json', JSON.stringify(value) ?? '');
    if (answer instanceof Promise || !answer.sealed) {
      // Never reached where sealing is synchronous and succeeds; the middleware seals the answer afterwards.
      return (json as (...args: unknown[]) => Response)(value, ...rest);
    }
    for (const [name, header] of Object.entries(answer.headers)) c.header(name, header);
    if (answer.vary) c.header('Vary', 'X-Encryption', { append: true });
    const response = (c.body as (...args: unknown[]) => Response)(answer.body, ...rest);
    sealedByJson.add(response);
    return response;
  }) as typeof c.json;
}
