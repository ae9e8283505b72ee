// Spec 2.7's extension-to-type table, written out here rather than imported from the service
// client: the reference service is what that client is tested against, so it must not share the
// client's reading of the spec (a mistake there would then pass its own test).
const AUDIO_CONTENT_TYPES: Readonly<Record<string, string>> = Object.freeze({
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  mp4: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/opus',
  webm: 'audio/webm',
  flac: 'audio/flac',
  amr: 'audio/amr',
});

export const AUDIO_EXTENSIONS = Object.keys(AUDIO_CONTENT_TYPES).map((extension) => `.${extension}`);

/** The audio content type for a file name, or undefined when its extension is not an audio one. */
export function audioTypeOf(fileName: string): string | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : AUDIO_CONTENT_TYPES[extension];
}
