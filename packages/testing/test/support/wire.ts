import type { SetupServer } from 'msw/node';

/** What crossed the mocked wire: each request and answer as the client sent and received it. */
export interface WireRecord {
  requests: { method: string; url: string; encryption: string | null; body: string }[];
  responses: { status: number; encryption: string | null; body: string }[];
}

/**
 * Records the wire through MSW's life-cycle events (the request before any handler opened it,
 * the answer after the handler sealed it), so tests can show that nothing went out in clear.
 */
export function recordWire(server: SetupServer): WireRecord & { settled(): Promise<void>; stop(): void } {
  const record: WireRecord = { requests: [], responses: [] };
  const pending: Promise<void>[] = [];
  const onRequest = ({ request }: { request: Request }) => {
    pending.push(
      request
        .clone()
        .text()
        .then((body) => {
          record.requests.push({
            method: request.method,
            url: request.url,
            encryption: request.headers.get('x-encryption'),
            body,
          });
        }),
    );
  };
  const onResponse = ({ response }: { response: Response }) => {
    pending.push(
      response
        .clone()
        .text()
        .then((body) => {
          record.responses.push({
            status: response.status,
            encryption: response.headers.get('x-encryption'),
            body,
          });
        }),
    );
  };
  server.events.on('request:start', onRequest);
  server.events.on('response:mocked', onResponse);
  return {
    requests: record.requests,
    responses: record.responses,
    /** Waits until every recorded body has been read. */
    async settled() {
      await Promise.all(pending);
    },
    stop() {
      server.events.removeListener('request:start', onRequest);
      server.events.removeListener('response:mocked', onResponse);
    },
  };
}
