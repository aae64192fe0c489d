// npm run bench:image-bounds: the CPU one hostile image buys, before and after the image bounds
// (lib/image-bounds.ts). The image is the crafted one of the security review: an all-zero
// 7,700 × 7,700 PNG (59 megapixels in ~0.2 MB, under the 60-megapixel cap). "Before" runs what the
// service did with it: header read, WebP thumbnails (full decode; PNG cannot shrink on load), and
// the vision loader's check decode plus the model input (224 × 224, as the embedding job); "after"
// runs today's inspectImage and loadImage, which refuse it from its header. The worst image still
// accepted is measured too: a 7,700 × 7,700 flat JPEG (exempt from the proportion rule, as JPEG
// shrinks on load) through today's thumbnails and vision pipeline. CPU is process.cpuUsage (user +
// system, every libvips thread included), the median of REPEAT runs. Prints one line per case.
//
// Env: REPEAT (5).
import { loadavg } from 'node:os';
import sharp from 'sharp';
import { loadImage, rgbPixels } from '../lib/vision/image.js';
import { inspectImage, makeThumbnails } from '../subgraphs/catalog/images/image.processing.js';
import { IMAGE_MAX_PIXELS } from '../subgraphs/catalog/images/image.rules.js';

const REPEAT = Number(process.env.REPEAT ?? 5);
sharp.cache(false);

async function cpuOf(work: () => Promise<unknown>): Promise<{ cpuMs: number; wallMs: number; outcome: string }> {
  const cpus: number[] = [];
  const walls: number[] = [];
  let outcome = 'ok';
  for (let i = 0; i < REPEAT; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    try {
      await work();
      outcome = 'accepted';
    } catch (e) {
      outcome = `refused (${(e as { kind?: string; code?: string }).kind ?? (e as { code?: string }).code ?? (e as Error).name})`;
    }
    const c = process.cpuUsage(c0);
    walls.push(performance.now() - t0);
    cpus.push((c.user + c.system) / 1000);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { cpuMs: median(cpus), wallMs: median(walls), outcome };
}

/** What the pipeline did before the bounds: nothing refused the image from its header. */
async function before(bytes: Buffer): Promise<void> {
  await sharp(bytes, { limitInputPixels: false }).metadata();
  await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS, animated: false }).rotate().resize({ width: 1024, height: 1024, fit: 'inside', withoutEnlargement: true }).raw().toBuffer();
  const vision = () => sharp(bytes, { limitInputPixels: false, failOn: 'error' }).rotate().flatten({ background: '#ffffff' });
  await vision().resize(8, 8, { fit: 'fill' }).raw().toBuffer();
  await vision().resize(224, 224, { fit: 'fill' }).removeAlpha().raw().toBuffer();
}

/** Today's path: the upload check, thumbnails when accepted, the vision loader and the model input. */
async function after(bytes: Buffer, type: string): Promise<void> {
  await inspectImage(bytes, type);
  await makeThumbnails(bytes);
  const img = await loadImage({ bytes }, { allowPrivate: false, maxPixels: IMAGE_MAX_PIXELS });
  await rgbPixels(img, 224, 224);
}

const bomb = await sharp({ create: { width: 7700, height: 7700, channels: 3, background: '#000000' } }).png({ compressionLevel: 9 }).toBuffer();
const flatJpeg = await sharp({ create: { width: 7700, height: 7700, channels: 3, background: '#336699' } }).jpeg({ quality: 90 }).toBuffer();

console.log(`image bounds: median of ${REPEAT} runs; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const cases: [string, () => Promise<unknown>][] = [
  [`crafted PNG 7700×7700, ${bomb.length} B, before`, () => before(bomb)],
  [`crafted PNG 7700×7700, ${bomb.length} B, after`, () => after(bomb, 'image/png')],
  [`flat JPEG 7700×7700, ${flatJpeg.length} B (worst accepted), after`, () => after(flatJpeg, 'image/jpeg')],
];
for (const [name, work] of cases) {
  const r = await cpuOf(work);
  console.log(`${name.padEnd(58)} ${r.outcome.padEnd(28)} CPU ${r.cpuMs.toFixed(1).padStart(8)} ms   wall ${r.wallMs.toFixed(1).padStart(8)} ms`);
}
