// A global colour descriptor: a joint RGB histogram (4×4×4 bins) of the image at 64×64, square-rooted
// (Hellinger) and L2-normalised, so the cosine of two descriptors is the Bhattacharyya coefficient of
// their colour distributions. Cheap (sharp only, no model), blind to shape and objects.
import { rgbPixels, type VisionImage } from './image.js';

export const COLOUR_DIMENSIONS = 64;

export function colourHistogram(rgb: Uint8Array): Float32Array {
  const h = new Float32Array(COLOUR_DIMENSIONS);
  for (let i = 0; i + 2 < rgb.length; i += 3) h[((rgb[i] >> 6) << 4) | ((rgb[i + 1] >> 6) << 2) | (rgb[i + 2] >> 6)]++;
  let norm = 0;
  for (let i = 0; i < h.length; i++) {
    h[i] = Math.sqrt(h[i]);
    norm += h[i] * h[i];
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < h.length; i++) h[i] /= norm;
  return h;
}

export async function colourDescriptor(image: VisionImage): Promise<Float32Array> {
  return colourHistogram(await rgbPixels(image, 64, 64));
}
