/** Spec 2.7: the content type of an audio file is detected from its extension. */
export const AUDIO_CONTENT_TYPES: Readonly<Record<string, string>> = Object.freeze({
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

/** The audio content type of a file name, or `application/octet-stream` for an unknown extension. */
export function audioContentType(fileName: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return (extension && AUDIO_CONTENT_TYPES[extension]) ?? 'application/octet-stream';
}
