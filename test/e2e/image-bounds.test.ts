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
import type { ChildProcess } from 'node:child_process';
import { stop, waitFor } from '../harness/spawn.js';
import { spawnStackGateway } from '../harness/stack-gateway.js';

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

// The shared test stack lifts the budget (its visual-search suites send dozens of photos with one
// key); this test runs a gateway of its own on the stack's subgraphs with the default budget.
const BUDGET_PORT = Number(process.env.TEST_PORT_BASE ?? 14000) + 1420;
const budgetGateway = `http://127.0.0.1:${BUDGET_PORT}/graphql`;

describe('the image budget (IMAGE_BUDGET_PER_MINUTE, default 30)', () => {
  let proc: ChildProcess;
  beforeAll(async () => {
    proc = spawnStackGateway(BUDGET_PORT, { IMAGE_BUDGET_PER_MINUTE: '30' }, 'image-budget-gateway');
    await waitFor(`http://127.0.0.1:${BUDGET_PORT}/health`, 150_000, proc);
  }, 200_000);
  afterAll(() => stop(proc));

  test('31 image fields in one operation → 429 before any subgraph; other keys unaffected', async () => {
    const [u, other] = await Promise.all([aiUser('growth'), aiUser('growth')]);
    const classify = (alias: string) => `${alias}: imageClassify(input: { imageUrl: "http://127.0.0.1:9/none.jpg" }) { labels { label } }`;
    const fields = Array.from({ length: 31 }, (_, i) => classify(`c${i}`)).join('\n');
    const r = await gql(`mutation { ${fields} }`, {}, u.headers, budgetGateway);
    expect(r.status).toBe(429);
    expect(r.body.errors![0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect(r.body.errors![0].message).toMatch(/image budget of 30/);
    expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
    // the budget is spent for this minute: one more vision call of the key is refused too
    const again = await gql(`mutation { ${classify('one')} }`, {}, u.headers, budgetGateway);
    expect(again.status).toBe(429);
    expect(again.body.errors![0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
    // an ordinary request of the same key still runs (its general rate limit is separate)
    const plain = await gql('{ __typename }', {}, u.headers, budgetGateway);
    expect(plain.status).toBe(200);
    expect(plain.body.data).toEqual({ __typename: 'Query' });
    // another key's budget is its own
    const fine = await gql(`mutation { ${classify('one')} }`, {}, other.headers, budgetGateway);
    expect(fine.status).not.toBe(429);
  }, 60_000);
});
