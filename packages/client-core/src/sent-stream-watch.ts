/**
 * What the platform does while a sealed stream is being sent. The Node entry sets it (see
 * node/early-answers.ts) so that a server's early answer survives a connection it closes; other
 * platforms have nothing to do.
 */
let startWatch: (() => () => void) | undefined;

export function setSentStreamWatch(start: () => () => void): void {
  startWatch = start;
}

/** `body` passed through chunk by chunk, with the platform's watch on until it ends or is cancelled. */
export function watchWhileSent(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  if (startWatch === undefined) return body;
  const release = startWatch();
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (!done) return controller.enqueue(value);
          release();
          controller.close();
        } catch (error) {
          release();
          throw error;
        }
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
