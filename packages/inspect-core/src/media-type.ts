/** What a file's first bytes say it is; enough to tell a user "that is a PDF" without writing it out. */
export interface MediaInfo {
  mediaType: string;
  description: string;
  extension: string;
}

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  signature.every((byte, i) => bytes[offset + i] === byte);

const SIGNATURES: ReadonlyArray<{ test: (b: Uint8Array) => boolean; info: MediaInfo }> = [
  {
    test: (b) => ascii(b, 0, 5) === '%PDF-',
    info: { mediaType: 'application/pdf', description: 'PDF document', extension: 'pdf' },
  },
  {
    test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47]),
    info: { mediaType: 'image/png', description: 'PNG image', extension: 'png' },
  },
  {
    test: (b) => startsWith(b, [0xff, 0xd8, 0xff]),
    info: { mediaType: 'image/jpeg', description: 'JPEG image', extension: 'jpg' },
  },
  {
    test: (b) => ascii(b, 0, 4) === 'GIF8',
    info: { mediaType: 'image/gif', description: 'GIF image', extension: 'gif' },
  },
  {
    test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WAVE',
    info: { mediaType: 'audio/wav', description: 'WAV audio', extension: 'wav' },
  },
  {
    test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP',
    info: { mediaType: 'image/webp', description: 'WebP image', extension: 'webp' },
  },
  {
    test: (b) => ascii(b, 0, 3) === 'ID3' || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0),
    info: { mediaType: 'audio/mpeg', description: 'MP3 audio', extension: 'mp3' },
  },
  {
    test: (b) => ascii(b, 0, 4) === 'OggS',
    info: { mediaType: 'audio/ogg', description: 'Ogg audio', extension: 'ogg' },
  },
  {
    test: (b) => ascii(b, 0, 4) === 'fLaC',
    info: { mediaType: 'audio/flac', description: 'FLAC audio', extension: 'flac' },
  },
  {
    test: (b) => ascii(b, 4, 7) === 'ftypM4A',
    info: { mediaType: 'audio/mp4', description: 'M4A audio', extension: 'm4a' },
  },
  {
    test: (b) => ascii(b, 4, 4) === 'ftyp',
    info: { mediaType: 'video/mp4', description: 'MP4 media', extension: 'mp4' },
  },
  {
    test: (b) => startsWith(b, [0x1a, 0x45, 0xdf, 0xa3]),
    info: { mediaType: 'video/webm', description: 'WebM/Matroska media', extension: 'webm' },
  },
  {
    test: (b) => startsWith(b, [0x50, 0x4b, 0x03, 0x04]),
    info: { mediaType: 'application/zip', description: 'ZIP archive (also DOCX/XLSX)', extension: 'zip' },
  },
  {
    test: (b) => startsWith(b, [0x1f, 0x8b]),
    info: { mediaType: 'application/gzip', description: 'gzip data', extension: 'gz' },
  },
];

const OCTETS: MediaInfo = {
  mediaType: 'application/octet-stream',
  description: 'binary data',
  extension: 'bin',
};
const TEXT: MediaInfo = { mediaType: 'text/plain', description: 'UTF-8 text', extension: 'txt' };
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f;
}

/** True when the bytes decode as UTF-8 and hold no control characters other than tab and newlines. */
export function isPrintableText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return false;
  }
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) return false;
  return true;
}

export function sniffMediaType(head: Uint8Array, wholeIsText?: boolean): MediaInfo {
  const match = SIGNATURES.find(({ test }) => test(head));
  if (match) return match.info;
  if (head.length > 0 && (wholeIsText ?? isPrintableText(head))) return TEXT;
  return OCTETS;
}
