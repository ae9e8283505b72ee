import { JweRequestError } from './errors.js';

function fieldList(names: readonly string[]): string {
  return names.map((name) => JSON.stringify(name)).join(', ');
}

/**
 * The one file of a form, under the service's upload rule: exactly one entry, a file, in
 * `fileField`. Anything else is refused before a byte is sent, with the fix in the message.
 */
export function theOneFile(form: FormData, fileField: string): Blob {
  const files: string[] = [];
  const texts: string[] = [];
  let file: Blob | undefined;
  form.forEach((value, name) => {
    if (typeof value === 'string') texts.push(name);
    else {
      files.push(name);
      file = value;
    }
  });
  const optOut = 'or send this call unencrypted on purpose (per-call { jwe: false }).';
  if (files.length === 0) {
    throw new JweRequestError(
      'ERR_JWE_FORM_UNSUPPORTED',
      `This FormData has no file (text fields ${fieldList(texts)}); an encrypted request carries JSON or one ` +
        `file. Send the values as JSON, ${optOut}`,
    );
  }
  if (files.length > 1) {
    throw new JweRequestError(
      'ERR_JWE_FORM_UNSUPPORTED',
      `This FormData has ${files.length} files (fields ${fieldList(files)}); an encrypted upload carries ` +
        `exactly one. Send one request per file, ${optOut}`,
    );
  }
  if (files[0] !== fileField) {
    throw new JweRequestError(
      'ERR_JWE_FILE_FIELD',
      `This FormData carries its file in field ${JSON.stringify(files[0])}, but encrypted uploads take it ` +
        `from ${JSON.stringify(fileField)}. Rename the field, set the "fileField" option, ${optOut}`,
    );
  }
  if (texts.length > 0) {
    throw new JweRequestError(
      'ERR_JWE_FORM_UNSUPPORTED',
      `This FormData has text fields ${fieldList(texts)} besides the file; an encrypted upload carries only ` +
        `{"file": "<base64>"}. Send the other values in the query string, ${optOut}`,
    );
  }
  return file!;
}
