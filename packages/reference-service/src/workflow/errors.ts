/** An HTTP error in body-parser's style, rendered by the service's JSON error handler. */
export class WorkflowHttpError extends Error {
  readonly status: number;
  readonly statusCode: number;
  readonly expose = true;
  readonly type: string;
  readonly code: string;

  constructor(status: number, type: string, code: string, message: string) {
    super(message);
    this.name = 'WorkflowHttpError';
    this.status = status;
    this.statusCode = status;
    this.type = type;
    this.code = code;
  }
}

export const invalidRequest = (type: string, message: string) =>
  new WorkflowHttpError(400, type, 'ERR_INVALID_REQUEST', message);
