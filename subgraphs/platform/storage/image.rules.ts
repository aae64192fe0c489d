// Is this buffer an image we accept as a logo, and how large is it? Decided from the bytes alone
// (magic numbers and the format's own header), never from a client's Content-Type or file name.
// PNG, JPEG, GIF and WebP only: SVG is refused on purpose (it is a document that can carry script).
// The REST bridge already refused other types by their magic bytes (lib/media-type.ts); this reads
// the format's own header for the pixel size.
import { PNG_SIGNATURE } from '../../../lib/media-type.js';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export interface ImageInfo {
  format: ImageFormat;
  contentType: string;
  width: number;
  height: number;
}

export const IMAGE_CONTENT_TYPES: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };
export const MAX_IMAGE_SIDE = 10_000;

/** the extension of a published image file, and back (the file name carries the format) */
export const FILE_EXTENSIONS: Record<ImageFormat, string> = { png: 'png', jpeg: 'jpg', gif: 'gif', webp: 'webp' };

export function formatOfFile(file: string): ImageFormat {
  const ext = file.slice(file.lastIndexOf('.') + 1);
  const format = (Object.keys(FILE_EXTENSIONS) as ImageFormat[]).find((f) => FILE_EXTENSIONS[f] === ext);
  if (!format) throw new Error(`not a published image file name: ${file}`);
  return format;
}


function png(b: Buffer): [number, number] | null {
  if (b.length < 24 || !b.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (b.toString('latin1', 12, 16) !== 'IHDR') return null; // IHDR must be the first chunk
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

function gif(b: Buffer): [number, number] | null {
  const sig = b.toString('latin1', 0, 6);
  if (b.length < 10 || (sig !== 'GIF87a' && sig !== 'GIF89a')) return null;
  return [b.readUInt16LE(6), b.readUInt16LE(8)];
}

/** Walk the JPEG segments up to the first start-of-frame marker, which carries the size. */
function jpeg(b: Buffer): [number, number] | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return null;
  let i = 2;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan before any frame
    const length = b.readUInt16BE(i + 2);
    if (length < 2) return null;
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (i + 9 > b.length) return null;
      return [b.readUInt16BE(i + 7), b.readUInt16BE(i + 5)];
    }
    i += 2 + length;
  }
  return null;
}

function webp(b: Buffer): [number, number] | null {
  if (b.length < 30 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP') return null;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return [b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff];
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = b.readUInt32LE(21);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (chunk === 'VP8X') {
    return [b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1];
  }
  return null;
}

const READERS: [ImageFormat, (b: Buffer) => [number, number] | null][] = [
  ['png', png],
  ['jpeg', jpeg],
  ['gif', gif],
  ['webp', webp],
];

/** The image's format and size, or null when the bytes are not a PNG, JPEG, GIF or WebP header. */
export function sniffImage(b: Buffer): ImageInfo | null {
  for (const [format, read] of READERS) {
    const size = read(b);
    if (!size) continue;
    const [width, height] = size;
    if (width < 1 || height < 1) return null;
    return { format, contentType: IMAGE_CONTENT_TYPES[format], width, height };
  }
  return null;
}
