import { createTenant, jsonApi, rest, uniq } from '../harness/client.js';
test('probe', async () => {
  const t = await createTenant();
  const out: any[] = [];
  let r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'x', sku: uniq('s'), attributes: 'nope' }), headers: t.keyHeaders });
  out.push(['product attributes string', r.status, r.body]);
  r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'x', sku: uniq('s'), metadata: [1, 2] }), headers: t.keyHeaders });
  out.push(['product metadata array', r.status, r.body]);
  r = await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid: uniq('i'), settings: 'nope' }), headers: t.keyHeaders });
  out.push(['index settings string', r.status, r.body]);
  r = await rest('POST', '/platforms', { body: jsonApi('platforms', { code: uniq('p'), name: 'x', settings: 5 }), headers: t.platformHeaders });
  out.push(['platform settings number', r.status, r.body]);
  r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 5, sku: uniq('s') }), headers: t.keyHeaders });
  out.push(['product name number', r.status, r.body]);
  console.log(JSON.stringify(out));
});
