// Product images end to end through the REST bridge and the gateway: multipart uploads streamed
// into the local object store, thumbnails made by the job, served files with their content type and
// cache headers, gallery order and the one primary image, deletes that leave no file, the refusals
// (IMAGE_UPLOAD_FAILED with a reason), another product's image id (404), and the GraphQL flow
// (presign, PUT to the URL, query).
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import sharp from 'sharp';
import { createTenant, gql, jsonApi, rest, stack, uniq, type Tenant } from '../harness/client.js';
import { imageForm, sampleImage, uploadImage } from '../harness/catalog-images.fixtures.js';
import { expectServiceError } from '../harness/security.js';

async function product(t: Tenant): Promise<string> {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Lamp', sku: uniq('S-') }), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.id;
}

/** Files under the app's image folder of the local store. */
function storedFiles(t: Tenant): string[] {
  const dir = resolve(stack().env.DATA_DIR, 'objects', 'catalog', t.appId);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => resolve(d.parentPath, d.name));
}

/** Waits (10 s at most) until no stored file of the app's names one of `ids`; answers those still there. */
async function untilFilesGone(t: Tenant, ids: readonly string[]): Promise<string[]> {
  let left: string[] = [];
  for (let i = 0; i < 100; i++) {
    left = storedFiles(t).filter((f) => ids.some((id) => f.includes(id)));
    if (!left.length) return left;
    await new Promise((res) => setTimeout(res, 100));
  }
  return left;
}

async function fetchFile(url: string): Promise<{ status: number; type: string | null; cache: string | null; body: Buffer }> {
  const r = await fetch(url.replace(/^https?:\/\/[^/]+/, stack().rest));
  return { status: r.status, type: r.headers.get('content-type'), cache: r.headers.get('cache-control'), body: Buffer.from(await r.arrayBuffer()) };
}

async function untilThumbnails(t: Tenant, productId: string, imageId: string): Promise<Record<string, any>> {
  for (let i = 0; i < 100; i++) {
    const r = await rest('GET', `/v1/products/${productId}/images`, { headers: t.keyHeaders });
    const img = r.body.data.find((x: any) => x.id === imageId);
    if (img.attributes.thumbnail_status !== 'pending') return img.attributes;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('thumbnails not made in 10 s');
}

describe('product images', () => {
  test('a multipart upload answers at once with its URLs; the original and the WebP thumbnails are served with type and cache headers', async () => {
    const t = await createTenant();
    const p = await product(t);
    const png = await sampleImage('png', 640, 480);
    const r = await uploadImage(t.keyHeaders, p, png, { alt_text: 'A red lamp' });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ id: expect.stringMatching(/^img_/), type: 'product_images' });
    const a = r.body.data.attributes;
    expect(a).toMatchObject({ product_id: p, alt_text: 'A red lamp', position: 0, is_primary: true, width: 640, height: 480, content_type: 'image/png', bytes: png.length });
    expect(a.url).toMatch(new RegExp(`/v1/product-images/${r.body.data.id}/original\\.png$`));
    expect(Object.keys(a.thumbnails).sort()).toEqual(['large', 'medium', 'small']);

    const original = await fetchFile(a.url);
    expect(original).toMatchObject({ status: 200, type: 'image/png', cache: 'public, max-age=31536000, immutable' });
    expect(original.body.equals(png)).toBe(true);

    const done = await untilThumbnails(t, p, r.body.data.id);
    expect(done.thumbnail_status).toBe('ready');
    for (const [name, side] of [['small', 150], ['medium', 480], ['large', 640]] as const) {
      const f = await fetchFile(a.thumbnails[name]);
      expect(f).toMatchObject({ status: 200, type: 'image/webp', cache: 'public, max-age=31536000, immutable' });
      const m = await sharp(f.body).metadata();
      expect(m.format).toBe('webp');
      expect(Math.max(m.width!, m.height!)).toBe(side); // fitted inside, never enlarged (large: the original's 640)
    }
    expect((await fetchFile(a.url.replace('original.png', 'original.jpg'))).status).toBe(404);
  });

  test('an anonymous productImageFile read answers URL, type and size; the storage key (naming app and environment) stays internal', async () => {
    const t = await createTenant();
    const p = await product(t);
    const png = await sampleImage('png', 64, 48);
    const r = await uploadImage(t.keyHeaders, p, png);
    expect(r.status).toBe(201);
    const id = r.body.data.id as string;
    const g = await gql('query($i: ID!) { productImageFile(imageId: $i, file: "original.png") { url contentType bytes storageRef } }', { i: id }, {});
    expect(g.body.errors).toBeUndefined();
    const f = g.body.data.productImageFile;
    expect(f).toMatchObject({ url: r.body.data.attributes.url, contentType: 'image/png', bytes: png.length });
    for (const text of [f.storageRef as string, Buffer.from(String(f.storageRef).split('.').slice(2).join(''), 'base64url').toString('latin1')]) {
      expect(text).not.toContain(t.appId);
      expect(text).not.toMatch(/catalog|live|test\//);
    }
    const legacy = await gql('query($i: ID!) { productImageFile(imageId: $i, file: "original.png") { objectKey } }', { i: id }, {});
    expect(legacy.body.errors?.[0].message).toMatch(/Cannot query field "objectKey"/);
    // the bridge still streams the file from the sealed reference
    const served = await fetchFile(r.body.data.attributes.url);
    expect(served.status).toBe(200);
    expect(served.body.equals(png)).toBe(true);
  });

  test('JPEG (EXIF orientation applied to width and height), WebP and GIF by their bytes, whatever the file name', async () => {
    const t = await createTenant();
    const p = await product(t);
    const jpeg = await uploadImage(t.keyHeaders, p, await sampleImage('jpeg'));
    expect(jpeg.body.data.attributes).toMatchObject({ content_type: 'image/jpeg', width: 64, height: 48 });
    const webp = await rest('POST', `/v1/products/${p}/images`, { form: imageForm(await sampleImage('webp'), {}, 'photo.png'), headers: t.keyHeaders });
    expect(webp.body.data.attributes).toMatchObject({ content_type: 'image/webp', position: 1, is_primary: false });
    const gif = await uploadImage(t.keyHeaders, p, await sampleImage('gif'));
    expect(gif.body.data.attributes).toMatchObject({ content_type: 'image/gif', position: 2 });
    const f = await fetchFile(gif.body.data.attributes.url);
    expect(f).toMatchObject({ status: 200, type: 'image/gif' });
  });

  test('gallery: position inserts, one primary, reorder, PATCH, delete closes up, promotes the next primary and removes the files', async () => {
    const t = await createTenant();
    const p = await product(t);
    const png = await sampleImage('png');
    const a = (await uploadImage(t.keyHeaders, p, png)).body.data.id;
    const b = (await uploadImage(t.keyHeaders, p, png)).body.data.id;
    const c = (await uploadImage(t.keyHeaders, p, png, { position: '0', is_primary: 'true' })).body.data.id;
    const list = async () => (await rest('GET', `/v1/products/${p}/images`, { headers: t.keyHeaders })).body.data.map((x: any) => [x.id, x.attributes.position, x.attributes.is_primary]);
    expect(await list()).toEqual([
      [c, 0, true],
      [a, 1, false],
      [b, 2, false],
    ]);

    const reordered = await rest('PUT', `/v1/products/${p}/images/reorder`, { body: { data: { image_ids: [b, c, a] } }, headers: t.keyHeaders });
    expect(reordered.status).toBe(200);
    expect(reordered.body.data.map((x: any) => x.id)).toEqual([b, c, a]);
    expectServiceError(await rest('PUT', `/v1/products/${p}/images/reorder`, { body: { data: { image_ids: [b, c] } }, headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'image_ids' });
    expectServiceError(await rest('PUT', `/v1/products/${p}/images/reorder`, { body: { data: { image_ids: [b, c, c] } }, headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'image_ids' });

    const patched = await rest('PATCH', `/v1/products/${p}/images/${a}`, { body: jsonApi('product_images', { alt_text: 'side view', is_primary: true }), headers: t.keyHeaders });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes).toMatchObject({ alt_text: 'side view', is_primary: true });
    expectServiceError(await rest('PATCH', `/v1/products/${p}/images/${b}`, { body: jsonApi('product_images', { is_primary: false }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'is_primary' });
    expect(await list()).toEqual([
      [b, 0, false],
      [c, 1, false],
      [a, 2, true],
    ]);

    const withImages = await rest('GET', `/v1/products?include=images`, { headers: t.keyHeaders });
    expect(withImages.body.data[0].attributes.images.map((x: any) => x.id)).toEqual([b, c, a]);
    expect(withImages.body.data[0].attributes.images[2]).toMatchObject({ type: 'product_images', attributes: { is_primary: true, thumbnails: expect.any(Object) } });
    const one = await rest('GET', `/v1/products/${p}?include=images`, { headers: t.keyHeaders });
    expect(one.body.data.attributes.images).toHaveLength(3);

    await untilThumbnails(t, p, a);
    const url = patched.body.data.attributes.url;
    const del = await rest('DELETE', `/v1/products/${p}/images/${a}`, { headers: t.keyHeaders });
    expect(del.status).toBe(200);
    expect(await list()).toEqual([
      [b, 0, true],
      [c, 1, false],
    ]);
    expect((await fetchFile(url)).status).toBe(404);
    // the files go by the job the row's delete enqueued (catalog.images.remove-files)
    expect(await untilFilesGone(t, [a])).toEqual([]);
    expect(storedFiles(t).filter((f) => f.includes(b))).not.toEqual([]);
    expectServiceError(await rest('DELETE', `/v1/products/${p}/images/${a}`, { headers: t.keyHeaders }), 'products', 404, 'IMAGE_NOT_FOUND', { parameter: 'image_id' });
  });

  test('refusals: not an image, empty, too large, no file, not multipart, bad fields, unknown product; nothing is left in the store', async () => {
    const t = await createTenant();
    const p = await product(t);
    const text = await rest('POST', `/v1/products/${p}/images`, { form: imageForm(Buffer.from('just some text, not an image at all'), {}, 'x.png'), headers: t.keyHeaders });
    const err = expectServiceError(text, 'products', 422, 'IMAGE_UPLOAD_FAILED', { parameter: 'file' });
    expect(err.detail ?? err.title).toBeDefined();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expectServiceError(await rest('POST', `/v1/products/${p}/images`, { form: imageForm(svg, {}, 'x.svg'), headers: t.keyHeaders }), 'products', 422, 'IMAGE_UPLOAD_FAILED', { parameter: 'file' });
    expectServiceError(await rest('POST', `/v1/products/${p}/images`, { form: imageForm(Buffer.alloc(0)), headers: t.keyHeaders }), 'products', 422, 'IMAGE_UPLOAD_FAILED', { parameter: 'file' });
    // a PNG signature on bytes that are no PNG: decided type, undecodable
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 7)]);
    expectServiceError(await rest('POST', `/v1/products/${p}/images`, { form: imageForm(fake), headers: t.keyHeaders }), 'products', 422, 'IMAGE_UPLOAD_FAILED', { parameter: 'file' });
    const big = Buffer.concat([await sampleImage('png'), Buffer.alloc(10 * 1024 * 1024)]);
    expectServiceError(await rest('POST', `/v1/products/${p}/images`, { form: imageForm(big), headers: t.keyHeaders }), 'products', 413, 'PAYLOAD_TOO_LARGE', { parameter: 'file' });
    expectServiceError(await rest('POST', `/v1/products/${p}/images`, { form: imageForm(null, { alt_text: 'x' }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'file' });
    const png = await sampleImage('png');
    expectServiceError(await rest('POST', `/v1/products/${p}/images`, { form: imageForm(png, { position: 'first' }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'position' });
    expectServiceError(await rest('POST', `/v1/products/${p}/images`, { form: imageForm(png, { is_primary: 'maybe' }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'is_primary' });
    expectServiceError(await rest('POST', `/v1/products/${p}/images`, { form: imageForm(png, { color: 'red' }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'color' });
    expectServiceError(await rest('POST', `/v1/products/${p}/images`, { form: imageForm(png, { alt_text: 'x'.repeat(600) }), headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'alt_text' });
    expectServiceError(await rest('POST', `/v1/products/${p}/images`, { raw: '{"data":{}}', headers: t.keyHeaders }), 'products', 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectServiceError(await rest('POST', `/v1/products/prod_doesnotexist0000000/images`, { form: imageForm(png), headers: t.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND', { parameter: 'id' });
    expect(storedFiles(t)).toEqual([]);
    expect((await rest('GET', `/v1/products/${p}/images`, { headers: t.keyHeaders })).body.data).toEqual([]);
  });

  test("another product's image id answers 404 (same app and another app); a deleted product's images are no longer served", async () => {
    const t = await createTenant();
    const p1 = await product(t);
    const p2 = await product(t);
    const img = (await uploadImage(t.keyHeaders, p1, await sampleImage('png'))).body.data;
    expectServiceError(await rest('DELETE', `/v1/products/${p2}/images/${img.id}`, { headers: t.keyHeaders }), 'products', 404, 'IMAGE_NOT_FOUND', { parameter: 'image_id' });
    expectServiceError(await rest('PATCH', `/v1/products/${p2}/images/${img.id}`, { body: jsonApi('product_images', { alt_text: 'mine now' }), headers: t.keyHeaders }), 'products', 404, 'IMAGE_NOT_FOUND');
    expectServiceError(await rest('PUT', `/v1/products/${p2}/images/reorder`, { body: { data: { image_ids: [img.id] } }, headers: t.keyHeaders }), 'products', 422, 'VALIDATION_FAILED', { parameter: 'image_ids' });
    const other = await createTenant();
    const p3 = await product(other);
    expectServiceError(await rest('DELETE', `/v1/products/${p3}/images/${img.id}`, { headers: other.keyHeaders }), 'products', 404, 'IMAGE_NOT_FOUND');
    expectServiceError(await rest('GET', `/v1/products/${p1}/images`, { headers: other.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND');
    expect((await rest('GET', `/v1/products/${p1}/images`, { headers: t.keyHeaders })).body.data).toHaveLength(1);

    expect((await fetchFile(img.attributes.url)).status).toBe(200);
    await rest('DELETE', `/v1/products/${p1}`, { headers: t.keyHeaders });
    expect((await fetchFile(img.attributes.url)).status).toBe(404);
  });

  test("a product deleted permanently takes its images' files with it (original, thumbnails); a soft delete keeps them for a restore", async () => {
    const t = await createTenant();
    const p = await product(t);
    const ids: string[] = [];
    for (const kind of ['png', 'jpeg'] as const) ids.push((await uploadImage(t.keyHeaders, p, await sampleImage(kind))).body.data.id);
    for (const id of ids) await untilThumbnails(t, p, id);
    const before = storedFiles(t).filter((f) => ids.some((id) => f.includes(id)));
    // an original and three thumbnails each
    expect(before).toHaveLength(8);

    expect((await rest('DELETE', `/v1/products/${p}`, { headers: t.keyHeaders })).status).toBe(200);
    await new Promise((res) => setTimeout(res, 500));
    expect(storedFiles(t).filter((f) => ids.some((id) => f.includes(id))).sort()).toEqual([...before].sort());
    expect((await rest('POST', `/v1/products/${p}/restore`, { headers: t.keyHeaders })).status).toBe(200);
    expect((await rest('GET', `/v1/products/${p}/images`, { headers: t.keyHeaders })).body.data).toHaveLength(2);

    const gone = await rest('DELETE', `/v1/products/${p}?permanent=true`, { headers: t.keyHeaders });
    expect(gone.status).toBe(200);
    expect(gone.body.meta).toEqual({ deleted: true, permanent: true });
    expect(await untilFilesGone(t, ids)).toEqual([]);
    expectServiceError(await rest('GET', `/v1/products/${p}/images`, { headers: t.keyHeaders }), 'products', 404, 'PRODUCT_NOT_FOUND');
  });

  test('GraphQL: presign, PUT the bytes to the signed URL, the image on the product; the URL is for images only', async () => {
    const t = await createTenant();
    const p = await product(t);
    const g = await gql(
      'mutation($p: ID!) { presignProductImageUpload(productId: $p, altText: "from GraphQL") { id uploadUrl method maxBytes } }',
      { p },
      t.keyHeaders,
    );
    expect(g.body.errors).toBeUndefined();
    const grant = g.body.data!.presignProductImageUpload;
    expect(grant).toMatchObject({ id: expect.stringMatching(/^img_/), method: 'PUT', maxBytes: 10 * 1024 * 1024 });
    const path = new URL(grant.uploadUrl).pathname;
    expect(path).toMatch(/^\/v1\/uploads\//);
    const put = await fetch(`${stack().rest}${path}`, { method: 'PUT', body: new Uint8Array(await sampleImage('webp')) });
    expect(put.status).toBe(201);
    const q = await gql('query($p: ID!) { product(id: $p) { images { id altText contentType width height isPrimary thumbnails { small } } } }', { p }, t.keyHeaders);
    expect(q.body.data!.product.images).toEqual([
      { id: grant.id, altText: 'from GraphQL', contentType: 'image/webp', width: 64, height: 48, isPrimary: true, thumbnails: { small: expect.stringContaining(`/v1/product-images/${grant.id}/small.webp`) } },
    ]);
    // the same URL again: already used
    const again = await fetch(`${stack().rest}${path}`, { method: 'PUT', body: new Uint8Array(await sampleImage('png')) });
    expect(again.status).toBe(422);
    // a logo URL's route does not take it, and the public record mutation refuses a forged receipt
    expect((await fetch(`${stack().rest}${path.replace('/v1/uploads/', '/uploads/')}`, { method: 'PUT', body: new Uint8Array(await sampleImage('png')) })).status).toBe(403);
    const forged = await gql(
      'mutation($t: String!) { recordProductImageUpload(token: $t, object: { key: "x", size: 1, contentType: "image/png", sha256: "00", receipt: "forged" }) { id } }',
      { t: path.split('/').pop() },
      {},
    );
    expect(forged.body.errors?.[0]?.extensions).toMatchObject({ code: 'UPLOAD_SIGNATURE_INVALID' });
  });
});
