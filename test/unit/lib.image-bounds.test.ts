// Bounded image work (lib/image-bounds.ts): a crafted all-zero 7,700 × 7,700 PNG (59 megapixels in
// ~0.2 MB, under the 60-megapixel cap) is refused from its header by the product-image check and by
// the vision loader, before any decode; ordinary images, flat artwork included, still pass.
import sharp from 'sharp';
import { disproportion, MAX_PIXELS_PER_BYTE, PROPORTION_FREE_PIXELS } from '../../lib/image-bounds.js';
import { loadImage } from '../../lib/vision/image.js';
import { inspectImage } from '../../subgraphs/catalog/images/image.processing.js';

let bomb: Buffer;
beforeAll(async () => {
  bomb = await sharp({ create: { width: 7700, height: 7700, channels: 3, background: '#000000' } }).png({ compressionLevel: 9 }).toBuffer();
}, 60_000);

test('the crafted PNG is small and declares 59 megapixels', async () => {
  expect(bomb.length).toBeLessThan(400_000);
  expect(await sharp(bomb).metadata()).toMatchObject({ width: 7700, height: 7700 });
});

test('product images: refused at inspection with reason disproportionate (IMAGE_UPLOAD_FAILED, parameter file)', async () => {
  const e = await inspectImage(bomb, 'image/png').catch((x) => x);
  expect(e).toMatchObject({ code: 'IMAGE_UPLOAD_FAILED', opts: { parameter: 'file', meta: { reason: 'disproportionate' } } });
  expect(e.message).toMatch(/7700×7700/);
});

test('vision calls: the loader refuses it as image_too_large before decoding', async () => {
  const e = await loadImage({ bytes: bomb }, { allowPrivate: false, maxPixels: 60_000_000 }).catch((x) => x);
  expect(e).toMatchObject({ name: 'VisionError', message: expect.stringMatching(/7700×7700 pixels in \d+ bytes/) });
  expect(e.kind).toBe('image_too_large');
});

test('ordinary images pass: a noisy 3000×2000 photo-like PNG, a flat 2000×2000 logo, a flat 4000×3000 JPEG', async () => {
  const noise = Buffer.alloc(3000 * 2000 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  const photo = await sharp(noise, { raw: { width: 3000, height: 2000, channels: 3 } }).png().toBuffer();
  expect(await inspectImage(photo, 'image/png')).toMatchObject({ width: 3000, height: 2000 });
  const logo = await sharp({ create: { width: 2000, height: 2000, channels: 4, background: '#ff000000' } }).png().toBuffer();
  expect(await inspectImage(logo, 'image/png')).toMatchObject({ width: 2000 });
  // a flat-colour JPEG runs at ~170 pixels per byte; JPEG shrinks on load, so it is exempt
  const flat = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#336699' } }).jpeg({ quality: 90 }).toBuffer();
  expect(12e6 / flat.length).toBeGreaterThan(MAX_PIXELS_PER_BYTE);
  expect(await inspectImage(flat, 'image/jpeg')).toMatchObject({ width: 4000, height: 3000 });
});

test('the rule: free up to PROPORTION_FREE_PIXELS, then at most MAX_PIXELS_PER_BYTE pixels per byte', () => {
  expect(disproportion(2000, 2000, 10, 'image/png')).toBeNull();
  expect(PROPORTION_FREE_PIXELS).toBe(4_000_000);
  expect(disproportion(5000, 2000, 100_000, 'image/webp')).toBeNull();
  expect(disproportion(5000, 2000, 99_999, 'image/gif')).toMatch(/one byte per 100 pixels/);
  expect(disproportion(5000, 2000, 99_999, 'image/jpeg')).toBeNull();
});
