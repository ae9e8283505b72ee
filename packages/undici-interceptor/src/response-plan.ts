import type { IncomingHttpHeaders } from 'node:http';
import type { JweClient, ResponseContext } from '@jwe-transport/client-core';
import {
  type HeldResponse,
  type OpenedResponse,
  type ResponsePlan,
  withoutForgedMarker,
} from './opening-handler.js';

/** undici's header record as fetch `Headers`, which the core speaks. */
export function headersOf(record: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/** fetch `Headers` back into undici's record. */
export function recordOf(headers: Headers): IncomingHttpHeaders {
  const record: IncomingHttpHeaders = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) record['set-cookie'] = cookies;
  return record;
}

/**
 * The response policy for one request: the core judges and opens; this converts between undici's
 * shapes and the core's. One plan per request, so the headers made for `hold` serve `open` too.
 */
export function responsePlan(client: JweClient, context: ResponseContext): ResponsePlan {
  let converted: { record: IncomingHttpHeaders; headers: Headers } | undefined;
  const convert = (record: IncomingHttpHeaders) => {
    if (converted?.record !== record) converted = { record, headers: headersOf(record) };
    return converted.headers;
  };
  return {
    hold: (status, headers) => client.needsBody({ status, headers: convert(headers) }, context),
    async open(held: HeldResponse): Promise<OpenedResponse> {
      const headers = convert(held.headers);
      const head = { status: held.status, statusText: held.statusText, headers, url: context.url ?? '' };
      const opened = await client.openBody(held.body, head, context);
      if (!opened.decrypted) return { ...held, headers: withoutForgedMarker(held.headers) };
      return { ...held, headers: recordOf(opened.headers), body: opened.plaintext };
    },
  };
}
