// Visual search end to end on real photos: Debian darknet's seven sample photos are the product
// images of a catalogue (one active product each), embedded by the catalog's job; queries are
// multipart photos through the REST bridge. Covers single and multi-object searches (a collage of
// two photos), use_object_detection=false, the retrieval quality on crops and rotations of the
// photos (recall@1 and @5, the figures of docs/catalog-images.md), tenant scoping, deleted images
// and draft products, the refusals, the query photo leaving nothing in the store, and GraphQL.
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTenant, gql, jsonApi, rest, stack, uniq, type HttpResult, type Tenant } from '../harness/client.js';
import { imageForm, uploadImage } from '../harness/catalog-images.fixtures.js';
import { imageServer, photoUrl } from '../harness/images.js';
import { createKey, expectServiceError, type SecTenant } from '../harness/security.js';
import { collage, DARKNET_PHOTOS, darknetPhoto, recallAt, retrievalQueries, type DarknetPhoto } from '../harness/vision-photos.js';

function search(t: Tenant, image: Buffer | null, fields: Record<string, string> = {}, headers = t.keyHeaders): Promise<HttpResult> {
  return rest('POST', '/v1/products/search', { form: imageForm(image, fields, 'query.jpg', 'image'), headers });
}

async function activeProduct(t: Tenant, name: string, status = 'active'): Promise<string> {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name, sku: uniq('VS-'), status }), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.id;
}

/** Wait until every image of the products is embedded (the job loads MobileNetV2 on first use). */
async function untilEmbedded(t: Tenant, productIds: string[]): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const lists = await Promise.all(productIds.map((p) => rest('GET', `/v1/products/${p}/images`, { headers: t.keyHeaders })));
    const statuses = lists.flatMap((l) => l.body.data.map((x: any) => x.attributes.embedding_status));
    if (statuses.includes('failed')) throw new Error('an embedding failed');
    if (statuses.every((s) => s === 'ready')) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('images not embedded in 300 s');
}

let a: Tenant;
const productOf = new Map<DarknetPhoto, string>();
beforeAll(async () => {
  a = await createTenant();
  for (const photo of DARKNET_PHOTOS) {
    const id = await activeProduct(a, `Photo ${photo}`);
    const up = await uploadImage(a.keyHeaders, id, darknetPhoto(photo));
    if (up.status !== 201) throw new Error(`upload ${photo}: ${up.status} ${JSON.stringify(up.body)}`);
    productOf.set(photo, id);
  }
  await untilEmbedded(a, [...productOf.values()]);
  // CenterNet loads on the first detection: warm it (a 503 from the gateway's deadline is retried)
  for (let i = 0; i < 8; i++) if ((await search(a, darknetPhoto('eagle'))).status === 200) break;
}, 420_000);

const photoOfProduct = (id: string) => [...productOf].find(([, p]) => p === id)?.[0];

describe('POST /v1/products/search (visual search)', () => {
  test('a photo holding two products (dog over giraffe collage): one search per object, grouped, the right product first in each', async () => {
    const r = await search(a, await collage('dog', 'giraffe'));
    expect(r.status).toBe(200);
    const meta = r.body.meta;
    expect(meta.mode).toBe('multi_object');
    expect(meta.objects_detected).toBeGreaterThanOrEqual(2);
    expect(meta.groups.length).toBe(meta.objects_detected);
    expect(meta.average_detection_time).toBeGreaterThan(0);
    expect(meta.scanned).toBeGreaterThanOrEqual(DARKNET_PHOTOS.length);
    // CenterNet finds the giraffe, and the dog (as "dog" or, squeezed into the 512×512 input, "cat")
    expect(meta.groups.map((g: any) => g.class)).toContain('giraffe');
    for (const g of meta.groups) expect(g).toMatchObject({ object_index: expect.any(Number), total_objects: meta.objects_detected, confidence: expect.any(Number), bbox: expect.any(Object) });
    // the results come grouped in object order, each carrying its object's detection_metadata
    const order = r.body.data.map((x: any) => x.attributes.detection_metadata.object_index);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    for (const x of r.body.data) {
      expect(x.type).toBe('products');
      expect(x.attributes.similarity_score).toBeGreaterThan(0);
      expect(x.attributes.similarity_score).toBeLessThanOrEqual(1);
      expect(x.attributes.detection_metadata).toMatchObject({ total_objects: meta.objects_detected, class: expect.any(String), bbox: expect.any(Object) });
    }
    // the dog photo fills the top 360 pixels of the collage, the giraffe the 480 below: the surest
    // object of each part finds that part's product first
    const centreY = (g: any) => g.bbox.y + g.bbox.height / 2;
    const surest = (gs: any[]) => gs.sort((x, y) => y.confidence - x.confidence)[0];
    const upper = surest(meta.groups.filter((g: any) => centreY(g) < 360));
    const lower = surest(meta.groups.filter((g: any) => centreY(g) >= 360));
    expect(photoOfProduct(upper.product_ids[0])).toBe('dog');
    expect(photoOfProduct(lower.product_ids[0])).toBe('giraffe');
  }, 120_000);

  test('one object (the eagle photo): one search with the whole photo; results carry that object', async () => {
    const r = await search(a, darknetPhoto('eagle'));
    expect(r.status).toBe(200);
    expect(r.body.meta).toMatchObject({ mode: 'single', objects_detected: 1, use_object_detection: true });
    expect(r.body.data[0].id).toBe(productOf.get('eagle'));
    expect(r.body.data[0].attributes.similarity_score).toBeGreaterThan(0.95);
    expect(r.body.data[0].attributes.detection_metadata).toMatchObject({ object_index: 0, total_objects: 1, class: 'bird' });
    expect(r.body.data[0].attributes.matched_image).toMatchObject({ id: expect.stringMatching(/^img_/), url: expect.stringContaining('/v1/product-images/') });
  }, 60_000);

  test('use_object_detection=false skips detection: no objects, no detection time, still the right product', async () => {
    const r = await search(a, await collage('dog', 'giraffe'), { use_object_detection: 'false', per_page: '3' });
    expect(r.status).toBe(200);
    expect(r.body.meta).toMatchObject({ mode: 'single', objects_detected: 0, average_detection_time: 0, use_object_detection: false, total: 3 });
    expect(r.body.data).toHaveLength(3);
    expect(r.body.data[0].attributes.detection_metadata).toEqual({ object_index: null, total_objects: 0, class: null, confidence: null, bbox: null });
    expect(['dog', 'giraffe']).toContain(photoOfProduct(r.body.data[0].id));
  }, 60_000);

  test('retrieval quality: crops and rotations of the photos find their product (recall@1, recall@5)', async () => {
    const ranks: (number | null)[] = [];
    const byKind = new Map<string, (number | null)[]>();
    for (const photo of DARKNET_PHOTOS) {
      for (const q of await retrievalQueries(photo)) {
        const r = await search(a, q.bytes, { use_object_detection: 'false', per_page: '10' });
        expect(r.status).toBe(200);
        const at = r.body.data.findIndex((x: any) => x.id === productOf.get(photo));
        const rank = at < 0 ? null : at + 1;
        ranks.push(rank);
        byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), rank]);
      }
    }
    const r1 = recallAt(ranks, 1);
    const r5 = recallAt(ranks, 5);
    const perKind = [...byKind].map(([k, rs]) => `${k}: ${(recallAt(rs, 1) * 100).toFixed(0)}%`).join(', ');
    console.info(`visual search on ${ranks.length} queries over ${DARKNET_PHOTOS.length} products: recall@1 ${(r1 * 100).toFixed(1)}%, recall@5 ${(r5 * 100).toFixed(1)}% (recall@1 per kind: ${perKind})`);
    // measured 55 of 56 at rank 1 and 56 of 56 in the top 5 (docs/catalog-images.md); a little room
    // for decoder differences between machines
    expect(r1).toBeGreaterThanOrEqual(0.9);
    expect(r5).toBeGreaterThanOrEqual(0.98);
    // turned photos meet the turned copies the index holds; a central crop and a slight tilt keep the scene
    for (const k of ['rotate 90°', 'rotate 180°', 'rotate 270°', 'crop centre 70%', 'tilt 10°']) expect(recallAt(byKind.get(k)!, 1)).toBe(1);
  }, 600_000);

  test("another app never sees this app's products: its search of the same photo finds only its own", async () => {
    const b = await createTenant();
    const empty = await search(b, darknetPhoto('dog'));
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual([]);
    const own = await activeProduct(b, 'B kite');
    await uploadImage(b.keyHeaders, own, darknetPhoto('kite'));
    await untilEmbedded(b, [own]);
    const r = await search(b, darknetPhoto('dog'), { use_object_detection: 'false' });
    expect(r.body.data.map((x: any) => x.id)).toEqual([own]);
  }, 300_000);

  test('a deleted image and a draft product are not found', async () => {
    const id = await activeProduct(a, 'Second scream');
    const up = await uploadImage(a.keyHeaders, id, darknetPhoto('scream'));
    await untilEmbedded(a, [id]);
    const before = await search(a, darknetPhoto('scream'), { use_object_detection: 'false' });
    expect(before.body.data.slice(0, 2).map((x: any) => x.id)).toContain(id);
    expect((await rest('DELETE', `/v1/products/${id}/images/${up.body.data.id}`, { headers: a.keyHeaders })).status).toBe(200);
    const after = await search(a, darknetPhoto('scream'), { use_object_detection: 'false' });
    expect(after.body.data.map((x: any) => x.id)).not.toContain(id);

    const draft = await activeProduct(a, 'Draft person', 'draft');
    await uploadImage(a.keyHeaders, draft, darknetPhoto('person'));
    await untilEmbedded(a, [draft]);
    const r = await search(a, darknetPhoto('person'), { use_object_detection: 'false' });
    expect(r.body.data[0].id).toBe(productOf.get('person'));
    expect(r.body.data.map((x: any) => x.id)).not.toContain(draft);
  }, 300_000);

  test('the query photo is deleted from the store after the search', async () => {
    expect((await search(a, darknetPhoto('kite'))).status).toBe(200);
    const dir = resolve(stack().env.DATA_DIR, 'objects', 'catalog', a.appId, 'live', 'visual-search');
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  }, 60_000);

  test('refusals: no image, not an image, bad per_page, a JSON body, a key without products:read', async () => {
    expectServiceError(await search(a, null, { use_object_detection: 'true' }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'image' });
    expectServiceError(await search(a, Buffer.from('%PDF-1.4 not an image at all')), 'products', 422, 'VALIDATION_FAILED', { parameter: 'image' });
    expectServiceError(await search(a, darknetPhoto('dog'), { per_page: '0' }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'per_page' });
    expectServiceError(await search(a, darknetPhoto('dog'), { use_object_detection: 'maybe' }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'use_object_detection' });
    expectServiceError(await rest('POST', '/v1/products/search', { body: { data: {} }, headers: a.keyHeaders }), 'products', 415, 'UNSUPPORTED_MEDIA_TYPE');
    const { key } = await createKey(a as SecTenant, { scopes: ['products:write'], name: 'write only' });
    expectServiceError(await search(a, darknetPhoto('dog'), {}, { 'x-app-id': a.appId, 'x-api-key': key }), 'products', 403, 'INSUFFICIENT_SCOPE');
  }, 60_000);

  test('GraphQL: visualProductSearch by URL answers the groups', async () => {
    await imageServer();
    const q = `query($u: String!) { visualProductSearch(imageUrl: $u) { mode objectsDetected averageDetectionTime
      groups { detection { objectIndex class } total productIds } results { similarityScore detectionMetadata { objectIndex class } product { id name } } } }`;
    const r = await gql(q, { u: photoUrl('eagle') }, a.keyHeaders);
    expect(r.body.errors).toBeUndefined();
    const s = r.body.data!.visualProductSearch;
    expect(s).toMatchObject({ mode: 'single', objectsDetected: 1 });
    expect(s.groups).toHaveLength(1);
    expect(s.groups[0].productIds[0]).toBe(productOf.get('eagle'));
    expect(s.results[0]).toMatchObject({ product: { id: productOf.get('eagle') }, detectionMetadata: { objectIndex: 0, class: 'bird' } });
  }, 60_000);
});
