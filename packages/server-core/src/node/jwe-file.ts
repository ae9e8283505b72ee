/**
 * An uploaded file as the Node framework adapters hand it to routes, shaped like multer's
 * `req.file` so code written for multer reads it unchanged.
 */
export interface JweFile {
  /** The form field (multipart) or envelope member (`file`) it came in. */
  fieldname: string;
  /** The client's file name; multipart only, since the encrypted form carries none. */
  originalname?: string;
  /** The multipart part's transfer encoding; multipart only. */
  encoding?: string;
  /** The type the client declared (multipart); otherwise the adapter's own finding (see its README). */
  mimetype: string;
  size: number;
  /** The bytes, when the route keeps uploads in memory (no `dest`). */
  buffer?: Buffer;
  /** With `dest`: the folder, the file's name in it, and the full path. */
  destination?: string;
  filename?: string;
  path?: string;
}
