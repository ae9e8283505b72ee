import http, { type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import https from 'node:https';
import { keepEarlyAnswers } from '@jwe-transport/client-core/adapter';

/** What axios's http adapter calls a `transport`: something with node:http's `request`. */
export interface AxiosTransport {
  request(options: RequestOptions, callback?: (response: IncomingMessage) => void): ClientRequest;
}

/**
 * The transport for a streamed upload on axios's http adapter (`base`, or node:http / node:https
 * by protocol, as axios picks them): its socket keeps a server's early answer (401, 413) readable
 * when the server closes the connection in the middle of the upload, so that axios reports that
 * answer and not `write EPIPE`.
 */
export function earlyAnswerTransport(base: AxiosTransport | undefined): AxiosTransport {
  return {
    request(options, callback) {
      const transport = base ?? (options.protocol === 'https:' ? https : http);
      const request = transport.request(options, callback);
      request.once('socket', keepEarlyAnswers);
      return request;
    },
  };
}
