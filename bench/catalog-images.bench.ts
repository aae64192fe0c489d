// Thumbnails of a ~10 MiB photo (the target: ≤ 1 s): the thumbnail job's work, decoding
// the original once and encoding the three WebP thumbnails (image.processing.ts makeThumbnails).
// The photo is a real one (Debian darknet's sample photos, when installed) scaled up and re-encoded
// as a high-quality JPEG until it weighs ~10 MiB; without them, a synthetic photo-like image.
// Prints the size of the input and p50 / p95 / max over the runs.
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { makeThumbnails } from '../subgraphs/catalog/images/image.processing.js';

const RUNS = Number(process.env.RUNS ?? 15);
const SAMPLE = '/usr/share/darknet/data/dog.jpg';

async function tenMiBPhoto(): Promise<{ bytes: Buffer; source: string }> {
  const MiB = 1024 * 1024;
  const base = existsSync(SAMPLE)
    ? sharp(SAMPLE)
    : sharp({ create: { width: 768, height: 576, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 120, sigma: 40 } } }).blur(1.5);
  const source = existsSync(SAMPLE) ? SAMPLE : 'synthetic';
  const small = await base.png().toBuffer();
  // upscale and add grain (a real camera's noise) until the JPEG is ~10 MiB
  for (let width = 5600; width <= 8000; width += 400) {
    const height = Math.round((width * 3) / 4);
    const grain = await sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 10 } } }).png().toBuffer();
    const bytes = await sharp(small)
      .resize(width, height, { fit: 'fill' })
      .composite([{ input: grain, blend: 'overlay' }])
      .jpeg({ quality: 95 })
      .toBuffer();
    if (bytes.length >= 9.5 * MiB) return { bytes, source };
  }
  throw new Error('could not make a 10 MiB photo');
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const { bytes, source } = await tenMiBPhoto();
const meta = await sharp(bytes).metadata();
console.log(`input: ${(bytes.length / 1024 / 1024).toFixed(2)} MiB JPEG, ${meta.width}×${meta.height} (from ${source})`);
await makeThumbnails(bytes); // warm-up
const ms: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const t = performance.now();
  await makeThumbnails(bytes);
  ms.push(performance.now() - t);
}
console.log(`thumbnails (small, medium, large WebP) of a 10 MiB photo: p50 ${pct(ms, 50).toFixed(0)} ms, p95 ${pct(ms, 95).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms over ${RUNS} runs (target ≤ 1000 ms)`);
