// What one image may cost to decode. A small file can declare tens of megapixels (an all-zero
// 7,700 × 7,700 PNG is 173 KB), and decoding it costs seconds of CPU whatever the file's size: so
// an image whose pixel count is out of proportion to its bytes is refused before any decode, every
// decode is bounded in pixels (sharp's limitInputPixels) and every pixel pipeline in time.

/** Images up to this many pixels are never refused for their proportion (a flat logo compresses well). */
export const PROPORTION_FREE_PIXELS = 4_000_000;
/** Above PROPORTION_FREE_PIXELS, at most this many pixels per byte of file. Photos run at 1–10, flat
 *  PNG artwork at up to ~80; a file decompressing further is a decompression bomb (an all-zero RGB
 *  PNG reaches ~340, a 1-bit one thousands). JPEG is exempt: its decoder shrinks on load (1/2 to
 *  1/8 per side), so its cost follows its bytes, and a flat-colour JPEG already runs at ~170. */
export const MAX_PIXELS_PER_BYTE = 100;
/** Wall-clock bound of one sharp pipeline (sharp's timeout: libvips stops and the promise rejects). */
export const IMAGE_WORK_SECONDS = 10;

/** Why `width × height` is out of proportion to `bytes`, or null when it is not; `mediaType` image/jpeg is exempt. */
export function disproportion(width: number, height: number, bytes: number, mediaType: string): string | null {
  const pixels = width * height;
  if (mediaType === 'image/jpeg' || pixels <= PROPORTION_FREE_PIXELS || pixels <= bytes * MAX_PIXELS_PER_BYTE) return null;
  return `The image declares ${width}×${height} pixels in ${bytes} bytes (${Math.round(pixels / Math.max(1, bytes))} pixels per byte); PNG, GIF and WebP images over ${PROPORTION_FREE_PIXELS / 1e6} megapixels must carry at least one byte per ${MAX_PIXELS_PER_BYTE} pixels`;
}
