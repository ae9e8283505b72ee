/**
 * The stable code an error answer names, for the terminal line: `{"error": {"code"}}`,
 * `{"code"}` or `{"error": "<code>"}`, or the S3-style `<Code>` of storage answers.
 */
export function errorCodeOf(body: Uint8Array | undefined): string | undefined {
  if (body === undefined || body.length === 0 || body.length > 65_536) return undefined;
  const text = Buffer.from(body).toString('utf8');
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const error = value?.error;
    const candidates = [
      typeof error === 'object' && error !== null ? (error as Record<string, unknown>).code : error,
      value?.code,
    ];
    const code = candidates.find((candidate) => typeof candidate === 'string' && candidate.length <= 80);
    return code as string | undefined;
  } catch {
    return /<Code>([^<]{1,80})<\/Code>/.exec(text)?.[1];
  }
}
