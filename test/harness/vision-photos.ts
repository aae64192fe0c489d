// Real photos for the catalog's vision tests and bench: Debian darknet's sample photos
// (/usr/share/darknet/data, package `darknet`), the retrieval queries made from them (crops,
// rotations, a mirrored re-compressed copy) and a collage of two photos (a photo holding two
// products). Everything is derived with sharp from the real files, deterministically.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';

export const DARKNET_DIR = '/usr/share/darknet/data';
/** The darknet sample photos (each one a "product" of the catalogue). */
export const DARKNET_PHOTOS = ['dog', 'eagle', 'giraffe', 'horses', 'kite', 'person', 'scream'] as const;
export type DarknetPhoto = (typeof DARKNET_PHOTOS)[number];

export function darknetPhoto(name: DarknetPhoto): Buffer {
  return readFileSync(`${DARKNET_DIR}/${name}.jpg`);
}

export interface RetrievalQuery {
  photo: DarknetPhoto;
  /** how the query was made from the photo */
  kind: string;
  bytes: Buffer;
}

/** A share of the photo: `left`, `top`, `width`, `height` as fractions of its size. */
async function cropShare(bytes: Buffer, left: number, top: number, width: number, height: number): Promise<Buffer> {
  const m = await sharp(bytes).metadata();
  const W = m.width!;
  const H = m.height!;
  return sharp(bytes)
    .extract({ left: Math.round(W * left), top: Math.round(H * top), width: Math.round(W * width), height: Math.round(H * height) })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * The queries made from one photo: three crops (centre 70 %, top-left 60 %, bottom-right 60 %),
 * three right-angle rotations, a 10° tilt (white corners), and a mirrored half-size copy
 * re-compressed at JPEG quality 50.
 */
export async function retrievalQueries(photo: DarknetPhoto): Promise<RetrievalQuery[]> {
  const src = darknetPhoto(photo);
  const made: [string, Promise<Buffer>][] = [
    ['crop centre 70%', cropShare(src, 0.15, 0.15, 0.7, 0.7)],
    ['crop top-left 60%', cropShare(src, 0, 0, 0.6, 0.6)],
    ['crop bottom-right 60%', cropShare(src, 0.4, 0.4, 0.6, 0.6)],
    ['rotate 90°', sharp(src).rotate(90).jpeg({ quality: 90 }).toBuffer()],
    ['rotate 180°', sharp(src).rotate(180).jpeg({ quality: 90 }).toBuffer()],
    ['rotate 270°', sharp(src).rotate(270).jpeg({ quality: 90 }).toBuffer()],
    ['tilt 10°', sharp(src).rotate(10, { background: '#ffffff' }).jpeg({ quality: 90 }).toBuffer()],
    ['mirror, half size, JPEG q50', sharp(src).flop().resize({ width: 320 }).jpeg({ quality: 50 }).toBuffer()],
  ];
  return Promise.all(made.map(async ([kind, p]) => ({ photo, kind, bytes: await p })));
}

/**
 * Two photos on one canvas, a photo holding two products: stacked (`vertical`, each fitted to
 * `size` pixels wide; the default, as it stays nearer the detector's square input) or side by side
 * (each fitted to `size` pixels high).
 */
export async function collage(a: DarknetPhoto, b: DarknetPhoto, opts: { size?: number; direction?: 'vertical' | 'horizontal' } = {}): Promise<Buffer> {
  const size = opts.size ?? 480;
  const vertical = (opts.direction ?? 'vertical') === 'vertical';
  const parts = await Promise.all([a, b].map((n) => sharp(darknetPhoto(n)).resize(vertical ? { width: size } : { height: size }).jpeg({ quality: 92 }).toBuffer()));
  const dims = await Promise.all(parts.map(async (x) => sharp(x).metadata()));
  const first = vertical ? dims[0].height! : dims[0].width!;
  return sharp({ create: vertical ? { width: size, height: first + dims[1].height!, channels: 3, background: '#ffffff' } : { width: first + dims[1].width!, height: size, channels: 3, background: '#ffffff' } })
    .composite([
      { input: parts[0], left: 0, top: 0 },
      { input: parts[1], left: vertical ? 0 : first, top: vertical ? first : 0 },
    ])
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** recall@k: the share of queries whose photo's product is among the first k results. */
export function recallAt(ranks: readonly (number | null)[], k: number): number {
  return ranks.filter((r) => r !== null && r <= k).length / ranks.length;
}
