import { isEncryptedHeader, isJsonType } from './encryption-header.js';
import { afterAuthentication, charsetUnsupported } from './errors.js';
import type { JweServer } from './jwe-server.js';
import type { Opened } from './opened.js';
import { type BodySource, type ReadBodyOptions, readBody } from './read-body.js';

/**
 * An opened request body: for an encrypted request, the plaintext, its text and its parsed JSON;
 * for a plain JSON body, its bytes, text and value (`plain: true`), read with the same parser.
 */
export interface OpenedBody extends Opened {
  readonly plaintext?: Uint8Array;
  readonly text?: string;
  readonly body?: unknown;
  readonly plain?: boolean;
}

/** A request as any framework hands it over: a header reader (lower-case names) and its body. */
export interface BodyRequest {
  header(name: string): string | undefined;
  /** The body, when the request has one (`undefined` for none). */
  body: BodySource | undefined;
  /** Watches the client while the body is read (Express's idle timeout). */
  watch?: ReadBodyOptions['watch'];
  /** Told when the body was read to its end (an error answer may then keep the connection). */
  readToEnd?: () => void;
}

/** Whether a plain request carries a JSON body this server parses (any other type is left alone). */
export function isPlainJson(
  contentType: string | null | undefined,
  contentLength: string | null | undefined,
) {
  return isJsonType(contentType) && contentLength !== '0';
}

/** A JSON body declared in another charset than UTF-8 is refused (body-parser answers 415 too). */
function assertUtf8(contentType: string | undefined): void {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '');
  const charset = match?.[1]?.toLowerCase();
  if (match && charset !== 'utf-8' && charset !== 'utf8') throw charsetUnsupported(match[1]!);
}

/**
 * Opens any request's body, whatever the framework: an `X-Encryption: JWE` body is read with the
 * one body reader, decrypted, checked strictly and parsed; a plain JSON body is parsed with the
 * same rules unless `plainJson` is `false`; any other body is left unread. Failures are
 * `JweHttpError`s (those raised after the envelope authenticated carry its state, so their
 * answers are sealed).
 */
export async function openBody(
  server: JweServer,
  request: BodyRequest,
  plainJson = true,
): Promise<OpenedBody> {
  const sent =
    request.body !== undefined ||
    request.header('content-length') !== undefined ||
    request.header('transfer-encoding') !== undefined;
  const read = async () => {
    const bytes = await readBody(request.body, {
      limit: server.options.limit,
      contentEncoding: request.header('content-encoding'),
      contentLength: request.header('content-length'),
      ...(request.watch === undefined ? {} : { watch: request.watch }),
    });
    request.readToEnd?.();
    return bytes;
  };
  if (sent && isEncryptedHeader(request.header('x-encryption'))) {
    const opened = await server.openEnvelope(await read());
    const { text, value } = server.parseOpened(opened);
    return { ...opened, text, body: value };
  }
  const opened = await server.openPlain(sent);
  const contentType = request.header('content-type');
  if (!sent || !plainJson || !isPlainJson(contentType, request.header('content-length'))) return opened;
  assertUtf8(contentType);
  return openPlainJson(server, opened, await read());
}

/**
 * A plain JSON body, parsed once with the rules decrypted ones follow: a malformed body is a
 * 400 `entity.parse.failed` here, not a `SyntaxError` in the handler. An empty one is left as no body.
 */
function openPlainJson(server: JweServer, opened: Opened, bytes: Uint8Array): OpenedBody {
  if (bytes.length === 0) return opened;
  try {
    const { text, value } = server.parsePlainJson(bytes);
    return { ...opened, plaintext: bytes, text, body: value, plain: true };
  } catch (error) {
    throw opened.responseKey ? afterAuthentication(error, opened) : error;
  }
}
