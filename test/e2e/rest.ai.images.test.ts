// AI image analysis end to end, both styles: REST bridge → gateway → ai subgraph → lib/vision
// (CenterNet, MobileNetV2 in worker threads) / Tesseract + PaddleOCR, on real photos (Debian
// darknet's samples) and a scanned page of real text, fetched by URL through the URL guard.
import { gql, jsonApi, rest } from '../harness/client.js';
import { aiUser, type AiUser } from '../harness/ai.js';
import { imageServer } from '../harness/images.js';
import { ROTATED_LINE } from '../harness/scanned-page.js';
import { expectServiceError } from '../harness/security.js';

const post = (u: AiUser, path: string, type: string, attributes: Record<string, unknown>) => rest('POST', path, { body: jsonApi(type, attributes), headers: u.headers });

let u: AiUser;
let base: string;
beforeAll(async () => {
  [u, base] = await Promise.all([aiUser('growth'), imageServer()]);
  // the models load on first use (docs/ai.md); on a busy machine that can exceed the gateway's 30 s
  // subgraph deadline, so warm each engine first (retrying a 503 until it has loaded)
  const warm = async (path: string, type: string, attributes: Record<string, unknown>) => {
    for (let i = 0; i < 8; i++) if ((await post(u, path, type, attributes)).status === 200) return;
  };
  await Promise.all([
    warm('/ai/v1/image/detect', 'object_detect_requests', { image_url: `${base}/photo/eagle.jpg` }),
    warm('/ai/v1/moderation/image', 'image_moderation_requests', { image_url: `${base}/photo/eagle.jpg`, categories: ['adult'] }),
    warm('/ai/v1/image/ocr', 'ocr_requests', { image_url: `${base}/page.png` }),
  ]);
}, 300_000);

describe('POST /ai/v1/image/detect', () => {
  test('the dog photo: dog, bicycle, boxes in pixels of the 768×576 image', async () => {
    const r = await post(u, '/ai/v1/image/detect', 'object_detect_requests', { image_url: `${base}/photo/dog.jpg` });
    expect(r.status).toBe(200);
    const a = r.body.data.attributes;
    expect(r.body.data).toMatchObject({ type: 'object_detect_results', id: expect.stringMatching(/^det_/) });
    expect(a).toMatchObject({ width: 768, height: 576, model: 'centernet-coco80' });
    expect(a.objects.map((o: any) => o.label)).toEqual(expect.arrayContaining(['dog', 'bicycle']));
    const bike = a.objects.find((o: any) => o.label === 'bicycle');
    expect(bike.bounding_box).toEqual({ x: expect.any(Number), y: expect.any(Number), width: expect.any(Number), height: expect.any(Number) });
    expect(bike.bounding_box.width).toBeGreaterThan(300);
    for (const o of a.objects) expect(o.confidence).toBeGreaterThanOrEqual(0.28);
  }, 60_000);

  test('min_confidence filters; GraphQL answers the same objects', async () => {
    const r = await post(u, '/ai/v1/image/detect', 'object_detect_requests', { image_url: `${base}/photo/horses.jpg`, min_confidence: 0.55 });
    const objects = r.body.data.attributes.objects;
    expect(objects.length).toBeGreaterThanOrEqual(1);
    expect(objects.every((o: any) => o.confidence >= 0.55 && o.label === 'horse')).toBe(true);
    const g = await gql('mutation($i: ObjectDetectInput!) { imageDetect(input: $i) { objects { label confidence boundingBox { x y width height } } } }', { i: { imageUrl: `${base}/photo/horses.jpg`, minConfidence: 0.55 } }, u.headers);
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.imageDetect.objects).toEqual(objects.map((o: any) => ({ label: o.label, confidence: o.confidence, boundingBox: o.bounding_box })));
  }, 60_000);

  test('not an image → 400 invalid_image_format; unreachable URL and bad min_confidence → 422 naming the parameter', async () => {
    const e = expectServiceError(await post(u, '/ai/v1/image/detect', 'object_detect_requests', { image_url: `${base}/text.jpg` }), 'ai', 400, 'invalid_image_format', { parameter: 'image_url' });
    expect(e.detail).toContain('jpg, png, gif, webp');
    expectServiceError(await post(u, '/ai/v1/image/detect', 'object_detect_requests', { image_url: `${base}/missing.jpg` }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'image_url' });
    expectServiceError(await post(u, '/ai/v1/image/detect', 'object_detect_requests', { image_url: `${base}/photo/dog.jpg`, min_confidence: 1.5 }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'min_confidence' });
    expectServiceError(await post(u, '/ai/v1/image/detect', 'object_detect_requests', {}), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'image_url' });
  }, 60_000);
});

describe('POST /ai/v1/image/classify', () => {
  test('labels of the kite photo from the COCO-80 set, best first, max_labels', async () => {
    const r = await post(u, '/ai/v1/image/classify', 'image_classify_requests', { image_url: `${base}/photo/kite.jpg`, max_labels: 2 });
    expect(r.status).toBe(200);
    const a = r.body.data.attributes;
    expect(a).toMatchObject({ label_set: 'coco-80', model: 'centernet-coco80-tags' });
    expect(a.labels).toHaveLength(2);
    expect(a.labels.map((l: any) => l.label).sort()).toEqual(['kite', 'person']);
    expect(a.labels[0].confidence).toBeGreaterThanOrEqual(a.labels[1].confidence);
    const set = await gql('{ imageLabelSet }', {}, u.headers);
    expect(set.body.data.imageLabelSet).toHaveLength(80);
  }, 60_000);
});

describe('POST /ai/v1/moderation/image', () => {
  test('a benign photo: adult assessed and allowed; violence and hate reported unavailable, never scored', async () => {
    const r = await post(u, '/ai/v1/moderation/image', 'image_moderation_requests', { image_url: `${base}/photo/person.jpg` });
    expect(r.status).toBe(200);
    const a = r.body.data.attributes;
    expect(a).toMatchObject({ flagged: false, action: 'allow', model: 'nsfwjs-mobilenetv2', unavailable_categories: ['violence', 'hate'] });
    expect(a.categories.adult).toMatchObject({ flagged: false, available: true });
    expect(a.categories.adult.score).toBeLessThan(0.2);
    expect(a.categories.violence).toEqual({ flagged: false, score: null, available: false });
  }, 90_000);

  test('only unavailable categories → 503 model_unavailable; unknown category → 422', async () => {
    const e = expectServiceError(await post(u, '/ai/v1/moderation/image', 'image_moderation_requests', { image_url: `${base}/photo/person.jpg`, categories: ['violence'] }), 'ai', 503, 'model_unavailable');
    expect(e.detail).toContain('adult');
    expectServiceError(await post(u, '/ai/v1/moderation/image', 'image_moderation_requests', { image_url: `${base}/photo/person.jpg`, categories: ['gore'] }), 'ai', 422, 'VALIDATION_FAILED', { parameter: 'categories' });
  }, 60_000);
});

describe('POST /ai/v1/image/ocr', () => {
  test('a scanned page: every line with spacing, the rotated line too, language en', async () => {
    const r = await post(u, '/ai/v1/image/ocr', 'ocr_requests', { image_url: `${base}/page.png` });
    expect(r.status).toBe(200);
    const a = r.body.data.attributes;
    expect(a).toMatchObject({ language: 'en', orientation: 0 });
    expect(a.text).toContain('Apache License');
    expect(a.text).toContain('Version 2.0, January 2004');
    expect(a.text).toContain('and distribution as defined by Sections 1 through 9 of this document.');
    const rotated = a.blocks.find((b: any) => b.text.replace(/\s/g, '').toLowerCase() === ROTATED_LINE.replace(/\s/g, '').toLowerCase());
    expect(rotated).toBeDefined();
    expect(rotated.angle).toBeGreaterThan(4);
    for (const b of a.blocks) expect(b.confidence).toBeGreaterThan(0.5);
  }, 120_000);

  test('detect_orientation: a page turned by 90 degrees is read upright and reported', async () => {
    const r = await post(u, '/ai/v1/image/ocr', 'ocr_requests', { image_url: `${base}/page-90.png`, detect_orientation: true });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes.orientation).toBe(90);
    expect(r.body.data.attributes.text).toContain('Apache License');
  }, 120_000);
});

describe('plan limit: images per minute', () => {
  test('the free plan allows 10 image calls a minute; the 11th → 429 rate_limit_exceeded with Retry-After', async () => {
    const free = await aiUser();
    // the limits count in fixed one-minute windows aligned to the clock (lib/rate-limit.ts): start
    // the 11 calls early in a window, so a slow machine does not spread them over two
    const into = Date.now() % 60_000;
    if (into > 40_000) await new Promise((r) => setTimeout(r, 60_000 - into + 200));
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await post(free, '/ai/v1/image/detect', 'object_detect_requests', { image_url: `${base}/missing.jpg` });
      statuses.push(r.status);
      if (i === 10) {
        expectServiceError(r, 'ai', 429, 'rate_limit_exceeded');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, 10).every((s) => s === 422)).toBe(true);
  }, 90_000);
});
