// Images for the product image tests and the security suite's image routes: small real encodings
// made by sharp (PNG, JPEG with an EXIF orientation, WebP, GIF), multipart forms carrying them, and
// the route fixtures (:image_id, the products the image routes act on).
import sharp from 'sharp';
import { rest, uniq, jsonApi, type HttpResult } from './client.js';
import type { ParamFixture, SecTenant } from './security.js';

/** A 64×48 gradient-ish image in `format` (JPEG: stored 48×64 with EXIF orientation 6, displayed 64×48). */
export async function sampleImage(format: 'png' | 'jpeg' | 'webp' | 'gif', width = 64, height = 48): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } }).composite([
    { input: { create: { width: Math.max(1, width >> 1), height: Math.max(1, height >> 1), channels: 3, background: { r: 20, g: 160, b: 220 } } }, left: 0, top: 0 },
  ]);
  if (format === 'jpeg') {
    // the pixels stored rotated, with the EXIF orientation that turns them back
    const raw = await base.png().toBuffer();
    return sharp(raw).rotate(-90).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer();
  }
  return base.toFormat(format).toBuffer();
}

export function imageForm(file: Buffer | null, fields: Record<string, string> = {}, name = 'photo.bin', fileField = 'file'): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append(fileField, new Blob([new Uint8Array(file)]), name);
  return form;
}

export async function uploadImage(headers: Record<string, string>, productId: string, file: Buffer, fields: Record<string, string> = {}): Promise<HttpResult> {
  return rest('POST', `/v1/products/${productId}/images`, { form: imageForm(file, fields), headers });
}

let png: Buffer | undefined;
async function fixturePng(): Promise<Buffer> {
  png ??= await sampleImage('png');
  return png;
}

/** The security suite's multipart body of an image route. */
export async function imageRouteForm(): Promise<FormData> {
  return imageForm(await fixturePng(), { alt_text: 'fixture' });
}

async function productWithImage(t: SecTenant): Promise<{ productId: string; imageId: string }> {
  const p = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Image fixture', sku: uniq('SKU-') }), headers: t.keyHeaders });
  if (p.status !== 201) throw new Error(`fixture product: HTTP ${p.status} ${JSON.stringify(p.body)}`);
  const r = await uploadImage(t.keyHeaders, p.body.data.id, await fixturePng());
  if (r.status !== 201) throw new Error(`fixture image: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  return { productId: p.body.data.id, imageId: r.body.data.id };
}

/** A product with one image, made once per tenant, for the routes on one image. */
export const imageProduct: ParamFixture = {
  value: (t) => t.extra.imageProduct,
  foreignCode: 'PRODUCT_NOT_FOUND',
  ensure: async (t) => {
    if (t.extra.imageProduct) return;
    const { productId, imageId } = await productWithImage(t);
    t.extra.imageProduct = productId;
    t.extra.image = imageId;
  },
};

/** DELETE removes the image its path names: a fresh one per call, on the same product. */
const deletableImageProduct: ParamFixture = {
  ...imageProduct,
  ensure: async (t) => {
    if (!t.extra.imageProduct) return imageProduct.ensure!(t);
    const r = await uploadImage(t.keyHeaders, t.extra.imageProduct, await fixturePng());
    if (r.status !== 201) throw new Error(`fixture image: HTTP ${r.status} ${JSON.stringify(r.body)}`);
    t.extra.image = r.body.data.id;
  },
};

const imageFixture: ParamFixture = { value: (t) => t.extra.image, foreignCode: 'IMAGE_NOT_FOUND' };

export const IMAGE_ROUTE_FIXTURES: { path: RegExp; method?: string; param: string; fixture: ParamFixture }[] = [
  { path: /^\/v1\/products\/:id\/images\/:image_id$/, method: 'DELETE', param: 'id', fixture: deletableImageProduct },
  { path: /^\/v1\/products\/:id\/images\/(reorder|:image_id)$/, param: 'id', fixture: imageProduct },
  { path: /^\/v1\/products\/:id\/images\/:image_id$/, param: 'image_id', fixture: imageFixture },
];

/** The reorder body names every image of the fixture product (it has one). */
export const IMAGE_ROUTE_BODIES: Record<string, (t: SecTenant) => Record<string, unknown>> = {
  'PUT /v1/products/:id/images/reorder': (t) => ({ image_ids: [t.extra.image] }),
  'PATCH /v1/products/:id/images/:image_id': () => ({ alt_text: `alt ${uniq('')}` }),
};
