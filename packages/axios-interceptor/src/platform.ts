/**
 * What differs between the Node and browser builds. The browser build has no Node streams: axios's
 * XHR and fetch adapters take web streams or nothing, and files there are sealed in memory.
 */
export interface Platform {
  /**
   * The body to give an axios adapter for a streamed envelope: the http adapter pipes a Node
   * stream, the fetch adapter sends a web `ReadableStream`.
   */
  uploadBody(stream: ReadableStream<Uint8Array>, adapterName: string | undefined): unknown;
  /** Readies a streamed upload's config for the http adapter (Node only). */
  prepareHttpUpload(config: { transport?: unknown }): void;
  /** A caller's Node stream body as a web stream, or `undefined` when `data` is not one. */
  streamSource(data: unknown): ReadableStream<Uint8Array> | undefined;
  /**
   * A buffered envelope's bytes as the adapter sends them without a copy: Node's http adapter
   * takes a Buffer (a plain Uint8Array it refuses), so Node gets a Buffer over the same memory.
   */
  bytesBody(bytes: Uint8Array): unknown;
  /** The plaintext in the shape the adapter gave the envelope in (a Buffer on Node's http adapter). */
  binary(bytes: Uint8Array, asReceived: unknown): unknown;
  /** The plaintext as a readable stream, for `responseType: 'stream'`. */
  stream(bytes: Uint8Array): unknown;
}

function arrayBufferOf(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

export const webPlatform: Platform = {
  uploadBody: (stream) => stream,
  prepareHttpUpload: () => {},
  streamSource: () => undefined,
  bytesBody: (bytes) => bytes,
  binary: (bytes) => arrayBufferOf(bytes),
  stream: (bytes) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    }),
};
