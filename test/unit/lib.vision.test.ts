// lib/vision on real photos (Debian package darknet's samples): loading by bytes, URL (through the
// URL guard, with its byte cap and refusals) and object store; CenterNet detection with NMS,
// min_confidence and max_objects; the MobileNetV2 + colour embedding; crops. The models run in
// their worker threads exactly as in the services.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { LocalObjectStore } from '../../lib/object-store.js';
import { ProcessShared } from '../../lib/process-shared.js';
import { cosine, crop, DETECT_MIN_CONFIDENCE, EMBEDDING_DIMENSIONS, iou, loadImage, nonMaxSuppression, SAME_THING_IOU, Vision, VisionError, VisionWorkers, type VisionImage } from '../../lib/vision/index.js';

const DARKNET = '/usr/share/darknet/data';
const photo = (name: string) => readFileSync(`${DARKNET}/${name}.jpg`);
const load = (bytes: Buffer) => loadImage({ bytes }, { allowPrivate: false });
const kind = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof VisionError) return e.kind;
    throw e;
  }
  return 'ok';
};

let vision: Vision;
let server: Server;
let base: string;
beforeAll(async () => {
  vision = new Vision({ preloadMobileNet: true });
  server = createServer((req, res) => {
    if (req.url === '/dog.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo('dog'));
    else if (req.url === '/text.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end('not an image at all, just text');
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await vision.ready();
}, 240_000);
afterAll(async () => {
  await vision?.stop();
  server?.close();
});

describe('loadImage', () => {
  test('bytes: format from the magic bytes, dimensions from the header', async () => {
    const img = await load(photo('dog'));
    expect(img).toMatchObject({ mediaType: 'image/jpeg', width: 768, height: 576 });
    const png = await load(await sharp(photo('dog')).png().toBuffer());
    expect(png.mediaType).toBe('image/png');
  });

  test('text, a truncated JPEG and an SVG are invalid_image_format', async () => {
    expect(await kind(load(Buffer.from('hello, this is text')))).toBe('invalid_image_format');
    expect(await kind(load(photo('dog').subarray(0, 2000)))).toBe('invalid_image_format');
    expect(await kind(load(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')))).toBe('invalid_image_format');
  });

  test('EXIF orientation: width and height as a viewer shows them', async () => {
    const rotated = await sharp(photo('dog')).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    expect(await load(rotated)).toMatchObject({ width: 576, height: 768 });
  });

  test('URL through the guard: fetched when private addresses are allowed, refused otherwise; 404 and the byte cap', async () => {
    expect(await loadImage({ url: `${base}/dog.jpg` }, { allowPrivate: true })).toMatchObject({ width: 768, height: 576 });
    const refused = await loadImage({ url: `${base}/dog.jpg` }, { allowPrivate: false }).catch((e: VisionError) => e);
    expect(refused).toMatchObject({ kind: 'image_unreachable', message: expect.stringContaining('loopback') });
    expect(await kind(loadImage({ url: `${base}/missing.jpg` }, { allowPrivate: true }))).toBe('image_unreachable');
    expect(await kind(loadImage({ url: `${base}/text.jpg` }, { allowPrivate: true }))).toBe('invalid_image_format');
    expect(await kind(loadImage({ url: `${base}/dog.jpg` }, { allowPrivate: true, maxBytes: 10_000 }))).toBe('image_too_large');
    expect(await kind(loadImage({ url: 'ftp://example.com/a.jpg' }, { allowPrivate: true }))).toBe('image_unreachable');
  });

  test('object store: by key; a missing key is image_not_found', async () => {
    const store = new LocalObjectStore(mkdtempSync(join(tmpdir(), 'vision-')));
    await store.put('photos/horses.jpg', Readable.from(photo('horses')), { contentType: 'image/jpeg' });
    expect(await loadImage({ objectKey: 'photos/horses.jpg' }, { allowPrivate: false, store })).toMatchObject({ width: 773, height: 512 });
    expect(await kind(loadImage({ objectKey: 'photos/none.jpg' }, { allowPrivate: false, store }))).toBe('image_not_found');
  });
});

describe('detect (CenterNet COCO-80)', () => {
  test('the dog photo: a dog and a bicycle, boxes in image pixels inside the image', async () => {
    const img = await load(photo('dog'));
    const objects = await vision.detect(img);
    const labels = objects.map((o) => o.label);
    expect(labels).toEqual(expect.arrayContaining(['dog', 'bicycle']));
    for (const o of objects) {
      expect(o.confidence).toBeGreaterThanOrEqual(DETECT_MIN_CONFIDENCE);
      expect(o.bbox.x + o.bbox.width).toBeLessThanOrEqual(768);
      expect(o.bbox.y + o.bbox.height).toBeLessThanOrEqual(576);
    }
    // the bicycle spans the lower left half of the photo (darknet's reference box ≈ x 110–575, y 125–450)
    const bike = objects.find((o) => o.label === 'bicycle')!;
    expect(bike.bbox.x).toBeLessThan(200);
    expect(bike.bbox.width).toBeGreaterThan(300);
    const dog = objects.find((o) => o.label === 'dog')!;
    expect(dog.bbox.y + dog.bbox.height).toBeGreaterThan(450);
  });

  test('horses: several horses, none of them duplicates (NMS); min_confidence and max_objects', async () => {
    const img = await load(photo('horses'));
    const all = await vision.detect(img, { minConfidence: 0.3 });
    const horses = all.filter((o) => o.label === 'horse');
    expect(horses.length).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < horses.length; i++) for (let j = i + 1; j < horses.length; j++) expect(iou(horses[i].bbox, horses[j].bbox)).toBeLessThan(0.5);
    const strict = await vision.detect(img, { minConfidence: 0.6 });
    expect(strict.length).toBeLessThan(all.length);
    expect(strict.every((o) => o.confidence >= 0.6)).toBe(true);
    expect(await vision.detect(img, { minConfidence: 0.1, maxObjects: 2 })).toHaveLength(2);
  });

  test('person.jpg: one label per box, and the default threshold keeps the horse behind the girl', async () => {
    const objects = await vision.detect(await load(photo('person')));
    for (let i = 0; i < objects.length; i++) for (let j = i + 1; j < objects.length; j++) expect(iou(objects[i].bbox, objects[j].bbox)).toBeLessThan(SAME_THING_IOU);
    expect(objects.map((o) => o.label)).toEqual(expect.arrayContaining(['person', 'dog']));
    // the horse stands at the right (darknet's reference box ≈ x 400–600, y 135–345); CenterNet alone
    // reads it as sheep (0.30) before horse (0.28), the mirrored image as horse (0.44): averaged, horse
    const horse = objects.find((o) => o.bbox.x > 350 && o.bbox.width > 150);
    expect(horse).toMatchObject({ label: 'horse' });
    expect(objects.map((o) => o.label).sort()).toEqual(['dog', 'horse', 'person']);
  });

  test("Visions sharing one pair of workers (one process's AI and catalog) each keep their flip averaging; one stopping leaves the pair to the rest", async () => {
    const shared = new ProcessShared();
    const workers = () => shared.get('vision', () => new VisionWorkers());
    const averaged = new Vision({}, workers());
    const single = new Vision({ flipAveraging: false }, workers());
    expect(workers()).toBe(workers());
    try {
      const img = await load(photo('person'));
      const horseOf = (objects: { label: string; bbox: { x: number; width: number } }[]) => objects.find((o) => o.bbox.x > 350 && o.bbox.width > 150)?.label;
      // one loaded CenterNet, two readings of the horse (see the test above), asked at the same time
      const [a, b] = await Promise.all([averaged.detect(img, { minConfidence: 0.25 }), single.detect(img, { minConfidence: 0.25 })]);
      expect(horseOf(a)).toBe('horse');
      expect(horseOf(b)).toBe('sheep');
      await single.stop();
      expect(horseOf(await averaged.detect(img, { minConfidence: 0.25 }))).toBe('horse');
      expect(averaged.health()).toMatchObject({ detector: { status: 'ready' } });
    } finally {
      await shared.stop();
    }
    expect(await kind(averaged.detect(await load(photo('person'))))).toBe('model_unavailable');
  }, 120_000);

  test('a painting with no COCO object: nothing at the default threshold', async () => {
    expect(await vision.detect(await load(photo('scream')))).toEqual([]);
  });
});

describe('embed (MobileNetV2 features + colour)', () => {
  let imgs: Record<string, VisionImage>;
  beforeAll(async () => {
    imgs = Object.fromEntries(await Promise.all(['dog', 'horses', 'scream', 'giraffe'].map(async (n) => [n, await load(photo(n))])));
  });

  test('unit length, fixed size, deterministic', async () => {
    const a = await vision.embed(imgs.dog);
    expect(a).toBeInstanceOf(Float32Array);
    expect(a).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(cosine(a, a)).toBeCloseTo(1, 4);
    expect(cosine(a, await vision.embed(imgs.dog))).toBeCloseTo(1, 5);
  });

  test('a resized, re-encoded copy is nearer than any other photo', async () => {
    const copy = await load(await sharp(photo('dog')).resize(400).flop().jpeg({ quality: 60 }).toBuffer());
    const q = await vision.embed(copy);
    const same = cosine(q, await vision.embed(imgs.dog));
    for (const other of ['horses', 'scream', 'giraffe']) expect(same).toBeGreaterThan(cosine(q, await vision.embed(imgs[other])) + 0.05);
  });

  test('adult content: benign photos are neutral', async () => {
    const s = await vision.adultContent(imgs.horses);
    expect(s.neutral).toBeGreaterThan(0.8);
    expect(s.drawing + s.hentai + s.neutral + s.porn + s.sexy).toBeCloseTo(1, 3);
  });
});

describe('crop and NMS', () => {
  test('crop: the box as a new JPEG of that size; a box outside the image is invalid_box', async () => {
    const img = await load(photo('dog'));
    const c = await crop(img, { x: 100.4, y: 120, width: 300, height: 200.2 });
    expect(c.mediaType).toBe('image/jpeg');
    expect(await sharp(c.bytes).metadata()).toMatchObject({ width: 301, height: 201 }) // the pixels the box touches;
    const edge = await crop(img, { x: 700, y: 500, width: 500, height: 500 });
    expect(edge.box).toEqual({ x: 700, y: 500, width: 68, height: 76 });
    expect(await kind(crop(img, { x: 900, y: 10, width: 10, height: 10 }))).toBe('invalid_box');
  });

  test('NMS keeps the best of overlapping boxes per label, keeps other labels', () => {
    const b = (x: number) => ({ x, y: 0, width: 100, height: 100 });
    const kept = nonMaxSuppression(
      [
        { label: 'dog', confidence: 0.5, bbox: b(10) },
        { label: 'dog', confidence: 0.9, bbox: b(0) },
        { label: 'cat', confidence: 0.4, bbox: b(0) },
        { label: 'dog', confidence: 0.3, bbox: b(300) },
      ],
      0.5,
    );
    expect(kept.map((k) => `${k.label}${k.confidence}`)).toEqual(['dog0.9', 'cat0.4', 'dog0.3']);
  });
});
