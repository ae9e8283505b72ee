import type { Writable } from 'node:stream';

/** Copies a Web stream into a Node writable, waiting for 'drain' so memory stays bounded. */
export async function pump(source: ReadableStream<Uint8Array>, destination: Writable): Promise<void> {
  const reader = source.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (!destination.write(value)) {
        await new Promise<void>((resolve, reject) => {
          const onDrain = () => {
            destination.off('error', onError);
            resolve();
          };
          const onError = (error: Error) => {
            destination.off('drain', onDrain);
            reject(error);
          };
          destination.once('drain', onDrain);
          destination.once('error', onError);
        });
      }
    }
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    throw error;
  } finally {
    reader.releaseLock();
  }
}
