import { AUDIO_CONTENT_TYPES } from '@jwe-transport/service-client/transcription';

// Spec 2.7's extension-to-type table is defined once, in the client package; the service reads it
// so that what a client sends and what the service accepts cannot drift apart.
export const AUDIO_EXTENSIONS = Object.keys(AUDIO_CONTENT_TYPES).map((extension) => `.${extension}`);

/** The audio content type for a file name, or undefined when its extension is not an audio one. */
export function audioTypeOf(fileName: string): string | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : AUDIO_CONTENT_TYPES[extension];
}
