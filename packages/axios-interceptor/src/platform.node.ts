import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { type AxiosTransport, earlyAnswerTransport } from './early-answer-transport.js';
import { type Platform, webPlatform } from './platform.js';

/** Node.js: streamed envelopes go to axios's http adapter as Node streams, with backpressure. */
export const nodePlatform: Platform = {
  uploadBody: (stream, adapterName) =>
    adapterName === 'http' ? Readable.fromWeb(stream as NodeWebStream<Uint8Array>) : stream,
  prepareHttpUpload: (config) => {
    config.transport = earlyAnswerTransport(config.transport as AxiosTransport | undefined);
  },
  streamSource: (data) =>
    data instanceof Readable ? (Readable.toWeb(data) as unknown as ReadableStream<Uint8Array>) : undefined,
  bytesBody: (bytes) =>
    Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  binary: (bytes, asReceived) =>
    Buffer.isBuffer(asReceived)
      ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : webPlatform.binary(bytes, asReceived),
  stream: (bytes) => Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]),
};
