/**
 * `@jwe-transport/service-client/node`: audio files from disk, streamed (never held whole in
 * memory), for Node (and Bun and Deno's Node compatibility).
 * @packageDocumentation
 */
import { type FileHandle, open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { audioContentType } from '../transcription/content-type.js';
import { TranscriptionError } from '../transcription/errors.js';
import type { SizedSource } from '../transcription/multipart-stream.js';
import { type AudioFile, MAX_UPLOAD_BYTES } from '../transcription/storage-upload.js';

export interface AudioFileFromPathOptions {
  /** The name the storage keys it by. Default: the path's base name. */
  name?: string;
  /** Default: from the extension. */
  type?: string;
}

/** Read size: large reads keep the per-chunk overhead low; memory stays at a few of them. */
const READ_BYTES = 1024 * 1024;

/**
 * The file as a Web stream that reads only when pulled, so a slow network holds at most a chunk
 * or two in memory (`Readable.toWeb()` of an fs stream does not hold back its reads).
 */
function fileStream(path: string): ReadableStream<Uint8Array> {
  let handle: FileHandle | undefined;
  const close = async () => {
    const open = handle;
    handle = undefined;
    await open?.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      async start() {
        handle = await open(path, 'r');
      },
      async pull(controller) {
        try {
          const buffer = new Uint8Array(READ_BYTES);
          const { bytesRead } = await handle!.read(buffer, 0, READ_BYTES, null);
          if (bytesRead === 0) {
            await close();
            controller.close();
          } else controller.enqueue(buffer.subarray(0, bytesRead));
        } catch (error) {
          await close();
          throw error;
        }
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  );
}

/**
 * An {@link AudioFile} for the file at `path`: checked now to be a regular file of at most 5 GiB,
 * read in 1 MiB chunks only while it is uploaded (each upload opens it anew).
 */
export async function audioFileFromPath(
  path: string,
  options: AudioFileFromPathOptions = {},
): Promise<AudioFile> {
  const name = options.name ?? basename(path);
  const type = options.type ?? audioContentType(name);
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
    size = info.size;
  } catch (error) {
    const reason = (error as { code?: string }).code ?? 'unreadable';
    throw new TranscriptionError(
      'ERR_UPLOAD_FILE_UNREADABLE',
      `Cannot read the audio file ${JSON.stringify(name)} (${reason}): check that the file path is valid and the file is readable.`,
      { cause: error },
    );
  }
  if (size > MAX_UPLOAD_BYTES) {
    throw new TranscriptionError(
      'ERR_UPLOAD_TOO_LARGE',
      `The audio file ${JSON.stringify(name)} has ${size} bytes; the storage takes at most ${MAX_UPLOAD_BYTES} (5 GiB) per file. Split the recording.`,
    );
  }
  const data: SizedSource = { size, stream: () => fileStream(path) };
  return { name, data, type };
}

export type { SizedSource } from '../transcription/multipart-stream.js';
export type { AudioFile } from '../transcription/storage-upload.js';
