// Bounded image work end to end: a crafted all-zero 7,700 × 7,700 PNG (59 megapixels in ~0.2 MB)
// is refused at upload and by a vision call before anything decodes it, and image uploads and
// vision calls draw on a per-key budget of their own (IMAGE_BUDGET_PER_MINUTE, 30 by default),
// refused with 429 at the gateway before any subgraph works.
import sharp from 'sharp';
import { createTenant, gql, jsonApi, rest, uniq } from '../harness/client.js';
import { aiUser } from '../harness/ai.js';
import { imageForm } from '../harness/catalog-images.fixtures.js';
import { createServer } from 'node:http';
import { expectServiceError } from '../harness/security.js';

let bomb: Buffer;
beforeAll(async () => {
  bomb = await sharp({ create: { width: 7700, height: 7700, channels: 3, background: '#000000' } }).png({ compressionLevel: 9 }).toBuffer();
}, 60_000);

test('the crafted PNG is refused at upload: 422 IMAGE_UPLOAD_FAILED naming its proportion; nothing is stored', async () => {
  const t = await createTenant();
  const p = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Lamp', sku: uniq('S-') }), headers: t.keyHeaders });
  const r = await rest('POST', `/v1/products/${p.body.data.id}/images`, { form: imageForm(bomb), headers: t.keyHeaders });
  const e = expectServiceError(r, 'products', 422, 'IMAGE_UPLOAD_FAILED', { parameter: 'file' });
  expect(JSON.stringify(e)).toMatch(/7700×7700 pixels in \d+ bytes/);
  expect((await rest('GET', `/v1/products/${p.body.data.id}/images`, { headers: t.keyHeaders })).body.data).toEqual([]);
});

test('a vision call on the crafted PNG is refused as too large before decoding', async () => {
  const u = await aiUser('growth');
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(bomb));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as { port: number };
    const r = await rest('POST', '/ai/v1/image/classify', { body: jsonApi('image_classify_requests', { image_url: `http://127.0.0.1:${port}/bomb.png` }), headers: u.headers });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(JSON.stringify(r.body)).toMatch(/7700×7700 pixels/);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('image work draws on a per-key budget: 31 image fields in one operation → 429 before any subgraph; other keys unaffected', async () => {
  const [u, other] = await Promise.all([aiUser('growth'), aiUser('growth')]);
  const fields = Array.from({ length: 31 }, (_, i) => `c${i}: imageClassify(input: { imageUrl: "http://127.0.0.1:9/none.jpg" }) { labels { label } }`).join('\n');
  const r = await gql(`mutation { ${fields} }`, {}, u.headers);
  expect(r.status).toBe(429);
  expect(r.body.errors![0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
  expect(r.body.errors![0].message).toMatch(/image budget of 30/);
  expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
  // the budget is spent for this minute: REST vision calls of the key are refused too
  expectServiceError(await rest('POST', '/ai/v1/image/classify', { body: jsonApi('image_classify_requests', { image_url: 'http://127.0.0.1:9/none.jpg' }), headers: u.headers }), 'ai', 429, 'RATE_LIMITED');
  // an ordinary request of the same key still runs (its general rate limit is separate)
  expect((await rest('GET', '/ai/v1/webhooks', { headers: u.headers })).status).toBe(200);
  const fine = await rest('POST', '/ai/v1/image/classify', { body: jsonApi('image_classify_requests', { image_url: 'http://127.0.0.1:9/none.jpg' }), headers: other.headers });
  expect(fine.status).not.toBe(429);
});
