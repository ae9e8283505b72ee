/** How many leading bytes `sniffMimeType` looks at. */
export const SNIFF_BYTES = 16;

interface Signature {
  mime: string;
  /** Byte values at `offset`; `undefined` matches any byte. */
  bytes: ReadonlyArray<number | undefined>;
  offset?: number;
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

// The formats this service sees: documents, images and the audio a transcription upload carries.
const SIGNATURES: readonly Signature[] = [
  { mime: 'application/pdf', bytes: ascii('%PDF-') },
  { mime: 'image/png', bytes: [0x89, ...ascii('PNG\r\n'), 0x1a, 0x0a] },
  { mime: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { mime: 'image/gif', bytes: ascii('GIF8') },
  {
    mime: 'image/webp',
    bytes: [...ascii('RIFF'), undefined, undefined, undefined, undefined, ...ascii('WEBP')],
  },
  {
    mime: 'audio/wav',
    bytes: [...ascii('RIFF'), undefined, undefined, undefined, undefined, ...ascii('WAVE')],
  },
  { mime: 'image/tiff', bytes: [0x49, 0x49, 0x2a, 0x00] },
  { mime: 'image/tiff', bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { mime: 'audio/mpeg', bytes: ascii('ID3') },
  { mime: 'audio/mpeg', bytes: [0xff, 0xfb] },
  { mime: 'audio/mpeg', bytes: [0xff, 0xf3] },
  { mime: 'audio/ogg', bytes: ascii('OggS') },
  { mime: 'audio/flac', bytes: ascii('fLaC') },
  { mime: 'audio/webm', bytes: [0x1a, 0x45, 0xdf, 0xa3] },
  { mime: 'audio/mp4', bytes: ascii('ftypM4A'), offset: 4 },
  { mime: 'video/mp4', bytes: ascii('ftyp'), offset: 4 },
  { mime: 'application/zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { mime: 'application/gzip', bytes: [0x1f, 0x8b] },
];

const matches = (head: Uint8Array, { bytes, offset = 0 }: Signature) =>
  head.length >= offset + bytes.length && bytes.every((b, i) => b === undefined || head[offset + i] === b);

/** The media type a file's first bytes announce, or `application/octet-stream` when none is known. */
export function sniffMimeType(head: Uint8Array): string {
  return SIGNATURES.find((signature) => matches(head, signature))?.mime ?? 'application/octet-stream';
}
