// What a file is, decided from its first bytes (magic numbers), never from a client's
// Content-Type or file name. Upload routes declare which of these types they take; the REST bridge
// sniffs the first MEDIA_SNIFF_BYTES of the body before anything is stored.

export const MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** Every signature below is decided within this many leading bytes. */
export const MEDIA_SNIFF_BYTES = 16;

const ascii = (b: Buffer, start: number, end: number) => b.toString('latin1', start, end);

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const SIGNATURES: [MediaType, (b: Buffer) => boolean][] = [
  ['image/png', (b) => b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)],
  ['image/jpeg', (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')],
  ['image/webp', (b) => b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP'],
];

/** The media type the leading bytes announce, or null when none of MEDIA_TYPES matches. */
export function sniffMediaType(head: Buffer): MediaType | null {
  for (const [type, matches] of SIGNATURES) if (matches(head)) return type;
  return null;
}
