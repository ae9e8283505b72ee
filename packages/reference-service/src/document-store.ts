import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JweFile } from '@jwe-transport/express-middleware';

export interface DocumentRecord {
  document_id: string;
  task: string | null;
  size: number;
  mimetype: string;
  sha256: string;
  originalname: string | null;
  encrypted: boolean;
  received_at: string;
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * Keeps uploaded documents as `<document_id>` files with a `<document_id>.json` record beside
 * each, in a folder only the service's user can enter (0700; files 0600). Uploads arrive in
 * `incoming/` (also 0700) and move into place only once whole.
 */
export class DocumentStore {
  readonly #records = new Map<string, { owner: string; record: DocumentRecord }>();
  readonly incomingDir: string;

  constructor(readonly dir: string) {
    this.incomingDir = join(dir, 'incoming');
  }

  async open(): Promise<this> {
    // mkdir's mode does not apply to folders that exist already, and the umask may widen nothing
    // but can narrow: set the modes explicitly.
    await mkdir(this.incomingDir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    await chmod(this.incomingDir, 0o700);
    return this;
  }

  /** Takes over a file the upload handler stored in `incomingDir`. */
  async adopt(
    file: JweFile,
    details: { task: string | null; encrypted: boolean; owner: string },
  ): Promise<DocumentRecord> {
    if (!file.path) throw new Error('The upload handler must store files on disk (its "dest" option).');
    const id = randomUUID();
    const path = join(this.dir, id);
    try {
      await chmod(file.path, 0o600);
      await rename(file.path, path);
    } catch (error) {
      await rm(file.path, { force: true });
      throw error;
    }
    const record: DocumentRecord = {
      document_id: id,
      task: details.task,
      size: file.size,
      mimetype: file.mimetype,
      sha256: await sha256OfFile(path),
      originalname: file.originalname ?? null,
      encrypted: details.encrypted,
      received_at: new Date().toISOString(),
    };
    await writeFile(`${path}.json`, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    this.#records.set(id, { owner: details.owner, record });
    return record;
  }

  /** The record, when `owner` uploaded it. */
  get(id: string, owner: string): DocumentRecord | undefined {
    const entry = this.#records.get(id);
    return entry?.owner === owner ? entry.record : undefined;
  }
}
