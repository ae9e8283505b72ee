// The same bytes through the CommonJS types (the package's `require` condition).
import codec = require('@jwe-transport/codec');

async function fromCommonJs(envelope: codec.Envelope, key: string): Promise<ArrayBuffer> {
  const bytes = await codec.decryptFile(envelope, key);
  new Blob([bytes]);
  return crypto.subtle.digest('SHA-256', bytes);
}

export = fromCommonJs;
