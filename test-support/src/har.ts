/** One header of a HAR entry. */
export interface HarHeader {
  name: string;
  value: string;
}

/**
 * One HAR 1.2 entry as a browser records it: a bearer token and a session cookie ride along (the
 * tests check that neither is shown), JSON bodies, and a response body text or (`base64`) its base64.
 */
export function harEntry(
  method: string,
  url: string,
  request: { headers?: HarHeader[]; body?: string },
  response: { status: number; headers?: HarHeader[]; body?: string; base64?: boolean },
) {
  const body = response.body ?? '';
  const content = response.base64
    ? {
        size: body.length,
        mimeType: 'application/json',
        text: Buffer.from(body).toString('base64'),
        encoding: 'base64',
      }
    : { size: body.length, mimeType: 'application/json', text: body };
  return {
    startedDateTime: '2026-11-26T10:00:00.000Z',
    time: 42,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [{ name: 'session', value: 'cookie-secret-value' }],
      headers: [{ name: 'Authorization', value: 'Bearer access-token-secret' }, ...(request.headers ?? [])],
      queryString: [],
      ...(request.body === undefined
        ? {}
        : { postData: { mimeType: 'application/json', text: request.body } }),
      headersSize: -1,
      bodySize: request.body?.length ?? 0,
    },
    response: {
      status: response.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: response.headers ?? [],
      content,
      redirectURL: '',
      headersSize: -1,
      bodySize: body.length,
    },
    cache: {},
    timings: { send: 1, wait: 40, receive: 1 },
  };
}
