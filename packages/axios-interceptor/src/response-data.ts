import { AxiosHeaders, type AxiosResponse, type AxiosResponseTransformer } from 'axios';
import type { CallState } from './call-state.js';
import type { Platform } from './platform.js';

const utf8 = new TextDecoder();
const utf8Encoder = new TextEncoder();

/** The bytes an adapter delivered for `responseType: 'arraybuffer'` (a Buffer, an ArrayBuffer, or a view). */
export function bytesOf(data: unknown): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (typeof data === 'string') return utf8Encoder.encode(data);
  return new Uint8Array(0);
}

function asResponseType(bytes: Uint8Array, state: CallState, response: AxiosResponse, platform: Platform) {
  switch (state.responseType) {
    case 'arraybuffer':
      return platform.binary(bytes, response.data);
    case 'blob':
      return new Blob([bytes as Uint8Array<ArrayBuffer>], {
        type: String(response.headers['content-type'] ?? ''),
      });
    case 'stream':
      return platform.stream(bytes);
    default:
      // json (axios's default), text, document: text, which axios's own transform then parses.
      return utf8.decode(bytes);
  }
}

/**
 * Gives the caller's `responseType` and `transformResponse` back their turn, on the opened bytes:
 * the response ends up exactly as axios would have made it from a plain answer.
 */
export function finishResponse(
  response: AxiosResponse,
  bytes: Uint8Array,
  state: CallState,
  platform: Platform,
): void {
  const config = response.config as AxiosResponse['config'] & { response?: AxiosResponse };
  // Put back exactly what the caller had, including nothing at all.
  const mutable = config as { responseType?: unknown; transformResponse?: unknown };
  mutable.responseType = state.responseType;
  mutable.transformResponse = state.transformResponse;
  let data: unknown = asResponseType(bytes, state, response, platform);
  const transforms: AxiosResponseTransformer[] = [state.transformResponse ?? []].flat();
  // What axios's own transformData does; `from` would copy an instance from another copy of axios.
  const headers = (
    typeof (response.headers as Partial<AxiosHeaders>).normalize === 'function'
      ? (response.headers as AxiosHeaders)
      : AxiosHeaders.from(response.headers as AxiosHeaders)
  ).normalize(false);
  // axios's own transform reads the response from the config to attach it to a parse error.
  config.response = response;
  try {
    for (const transform of transforms) data = transform.call(config, data, headers, response.status);
  } finally {
    delete config.response;
  }
  response.data = data;
}
