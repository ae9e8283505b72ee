import { InspectError } from './errors.js';
import { isObject } from './object.js';
import { parseJsonQuietly } from './parse-json.js';

/** An envelope read without the codec's strictness, so that inspect can report on broken ones too. */
export interface LooseEnvelope {
  serialization: 'flattened JSON' | 'compact';
  members: Record<string, unknown>;
}

export function readLooseEnvelope(text: string): LooseEnvelope {
  if (text.startsWith('{')) {
    const value = parseJsonQuietly(text, 'The envelope');
    if (!isObject(value))
      throw new InspectError('ERR_NOT_AN_ENVELOPE', 'The envelope must be a JSON object.');
    return { serialization: 'flattened JSON', members: value };
  }
  const parts = text.split('.');
  if (parts.length !== 5) {
    throw new InspectError(
      'ERR_NOT_AN_ENVELOPE',
      `A compact JWE has five dot-separated parts (protected.encrypted_key.iv.ciphertext.tag); this one has ${parts.length}.`,
    );
  }
  const [protectedText, encryptedKey, iv, ciphertext, tag] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  return {
    serialization: 'compact',
    members: { protected: protectedText, encrypted_key: encryptedKey, iv, ciphertext, tag },
  };
}
