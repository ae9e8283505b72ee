/** Spec 2.7: the content type of an audio file comes from its extension. */
const AUDIO_TYPES: Record<string, string> = {
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
};

export const AUDIO_EXTENSIONS = Object.keys(AUDIO_TYPES).map((extension) => `.${extension}`);

/** The audio content type for a file name, or undefined when its extension is not an audio one. */
export function audioTypeOf(fileName: string): string | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : AUDIO_TYPES[extension];
}
