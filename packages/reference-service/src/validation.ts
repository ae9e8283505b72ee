/** A request that is well formed but asks for something invalid; exposed to the client like body-parser's errors. */
export function validationFailed(message: string) {
  return Object.assign(new Error(message), {
    status: 400,
    statusCode: 400,
    expose: true,
    type: 'validation.failed',
    code: 'ERR_VALIDATION',
  });
}
