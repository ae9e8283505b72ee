import { essence, type HeaderView, saysJwe } from './media-type.js';

/** Where a request went, for messages: no query string, which may carry tokens. */
export function describeTarget(method: string, url: string | undefined): string {
  if (!url) return method.toUpperCase();
  try {
    const { origin, pathname } = new URL(url);
    return `${method.toUpperCase()} ${origin}${pathname}`;
  } catch {
    return method.toUpperCase();
  }
}

/** What arrived, as a person would describe it: "text/html, no X-Encryption header, 162 bytes". */
export function describeArrival(headers: HeaderView, bodyBytes: number): string {
  const contentType = headers.get('content-type');
  const type = contentType === null ? 'no content type' : essence(contentType) || 'an empty content type';
  const marker = headers.has('x-encryption')
    ? `X-Encryption: ${JSON.stringify(headers.get('x-encryption')).slice(1, -1)}`
    : 'no X-Encryption header';
  return `${type}, ${marker}, ${bodyBytes} byte${bodyBytes === 1 ? '' : 's'}`;
}

/** Whether a status is one a successful exchange answers with. */
export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

export { saysJwe };
