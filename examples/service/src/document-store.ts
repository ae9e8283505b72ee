import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
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

/** Keeps uploaded documents as `<document_id>` files with a `<document_id>.json` record beside each. */
export class DocumentStore {
  private readonly records = new Map<string, DocumentRecord>();

  constructor(readonly dir: string) {}

  async open(): Promise<this> {
    await mkdir(this.dir, { recursive: true });
    return this;
  }

  /** Takes over a file the upload handler stored in this folder. */
  async adopt(file: JweFile, details: { task: string | null; encrypted: boolean }): Promise<DocumentRecord> {
    if (!file.path) throw new Error('The upload handler must store files on disk (its "dest" option).');
    const id = randomUUID();
    const path = join(this.dir, id);
    await rename(file.path, path);
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
    await writeFile(`${path}.json`, `${JSON.stringify(record, null, 2)}\n`);
    this.records.set(id, record);
    return record;
  }

  get(id: string): DocumentRecord | undefined {
    return this.records.get(id);
  }
}
