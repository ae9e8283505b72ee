import { mkdtemp } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const folders = new Map<string, Promise<string>>();

/**
 * The folder inside `dest` that holds this process's uploads: made once per `dest` with
 * `mkdtemp`, so it is new, owned by this process and 0700 whatever the umask. Files holding
 * request data live there (each 0600), not in `dest` itself, whose mode is the user's business
 * and is never changed here.
 */
export function privateFolder(dest: string): Promise<string> {
  const root = resolve(dest);
  let folder = folders.get(root);
  if (!folder) {
    folder = mkdtemp(join(root, 'jwe-uploads-'));
    // A failure (no such dest) is not cached: the next upload tries again.
    folder.catch(() => folders.delete(root));
    folders.set(root, folder);
  }
  return folder;
}
