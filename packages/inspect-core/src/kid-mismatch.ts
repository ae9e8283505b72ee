/**
 * What every view says of an envelope whose `kid` names another key than the one that opened it.
 * The kid is not authenticated, so such an envelope opens (the other listed keys are tried), but
 * the sender sealed it under a key its kid does not name: a rotation or configuration bug that a
 * plain "decrypted" would hide.
 */

/** The kids an opened envelope carries: the one it names and the one of the key that opened it. */
export interface OpenedKids {
  /** The kid the envelope names, if any. */
  kid: string | null | undefined;
  /** The kid the opening key is listed under, when the keys were given as a kid=key list. */
  keyKid: string | null | undefined;
}

/** True when the envelope names a kid and a key listed under another kid opened it. */
export function kidNamesOtherKey({ kid, keyKid }: OpenedKids): boolean {
  return typeof kid === 'string' && typeof keyKid === 'string' && kid !== keyKid;
}

/** The sentence a view shows beside such an envelope, or `null` when its kid named the opening key. */
export function kidMismatchWarning(opened: OpenedKids): string | null {
  if (!kidNamesOtherKey(opened)) return null;
  return (
    `The envelope names kid "${opened.kid}" but authenticated with the key listed as "${opened.keyKid}": ` +
    'the sender sealed it with another key than the one its kid names.'
  );
}

/** A table cell's words for an opened envelope: "decrypted", with the kid, or with both kids when they differ. */
export function decryptedLabel(opened: OpenedKids): string {
  if (kidNamesOtherKey(opened))
    return `decrypted with the key listed as "${opened.keyKid}", not kid "${opened.kid}"`;
  return typeof opened.kid === 'string' ? `decrypted with kid "${opened.kid}"` : 'decrypted';
}
