// The products and search document (products-and-search.md, extracted to
// documents/products-and-search.json) as tests through the REST bridge: every documented path
// answers its documented shape, every field of every resource is accepted, stored and answered with
// its type, every documented query parameter is accepted, every error code is reachable.
import { jsonApi, rest, uniq, type HttpResult } from '../harness/client.js';
import {
  errorSuite,
  fieldsNotShownSuite,
  fieldSuite,
  loadDocument,
  pathSuite,
  printCoverage,
  rowSuite,
  queryParamSuite,
  resourceKey,
  shapeProblems,
  type ContractDocument,
  type FieldsNotShownPlan,
  type KnownElsewhere,
} from '../harness/contract.js';
import { imageForm, sampleImage } from '../harness/catalog-images.fixtures.js';
import { createSecTenant, sleep, type SecTenant } from '../harness/security.js';

const doc = loadDocument('products-and-search');

/** Rows known not to hold yet (value: the issue item that fixes it); empty: every documented row holds. */
const KNOWN_FIXED_ELSEWHERE: KnownElsewhere = {};

const tenant = (plan?: string) => createSecTenant({ plan: plan ?? 'growth' });

/** The fields the document lists for `resource`, as a check of an answer's data (and its documented data.type). */
function resourceCheck(d: ContractDocument, resource: string) {
  const fields = d.fields.filter((f) => resourceKey(f.resource) === resource && f.kind !== 'query');
  const dataType = fields.find((f) => f.dataType)?.dataType;
  return (res: HttpResult): string[] => {
    const items: any[] = Array.isArray(res.body?.data) ? res.body.data : [res.body?.data];
    const out: string[] = [];
    for (const data of items.slice(0, 2)) {
      out.push(...shapeProblems({ id: data?.id, ...data?.attributes }, fields, 'data.attributes', { nullable: true }));
      if (dataType && data?.type !== dataType) out.push(`data.type is ${data?.type}, documented ${dataType}`);
    }
    return out;
  };
}

function shapeCheck(name: string) {
  const shape = doc.shapes.find((s) => s.name === name);
  return (res: HttpResult): string[] => (shape ? shapeProblems(res.body?.data?.attributes, shape.attrs, 'data.attributes', { nullable: true }) : [`no shape ${name} in the document`]);
}

/**
 * "Text search response: `data` array of products; `meta`: `total`, `page`, `per_page`, `facets`
 * (category and brand as arrays of value and count; price_range as array of min, max, count), `suggestions` (array of strings)"
 */
function textSearchMeta(res: HttpResult): string[] {
  const meta = res.body?.meta ?? {};
  const out: string[] = [];
  for (const k of ['total', 'page', 'per_page']) if (!Number.isInteger(meta[k])) out.push(`meta.${k} is not an integer: ${JSON.stringify(meta[k])}`);
  for (const k of ['category', 'brand', 'price_range']) if (!Array.isArray(meta.facets?.[k])) out.push(`meta.facets.${k} is not an array: ${JSON.stringify(meta.facets)}`);
  if (!Array.isArray(meta.suggestions)) out.push(`meta.suggestions is not an array`);
  return out;
}

/** "response `data.suggestions` (array of strings) and `data.products` (array of id, name, image URL)" */
function suggestShape(res: HttpResult): string[] {
  const d = res.body?.data ?? {};
  const out: string[] = [];
  if (!Array.isArray(d.suggestions) || d.suggestions.some((s: unknown) => typeof s !== 'string')) out.push(`data.suggestions is not an array of strings: ${JSON.stringify(d).slice(0, 300)}`);
  if (!Array.isArray(d.products)) out.push('data.products is not an array');
  return out;
}

/** "Visual search … `meta` adds `objects_detected` and `average_detection_time`; each result carries similarity_score and detection_metadata" */
function visualSearch(res: HttpResult): string[] {
  const out: string[] = [];
  for (const k of ['objects_detected', 'average_detection_time']) if (res.body?.meta?.[k] === undefined) out.push(`meta.${k} is missing`);
  for (const hit of (res.body?.data ?? []).slice(0, 2)) for (const k of ['similarity_score', 'detection_metadata']) if (hit.attributes?.[k] === undefined) out.push(`data[].attributes.${k} is missing`);
  return out;
}

/** "Returned as data.type = documents, data.id, attributes of the fields" */
const documentShape = (res: HttpResult) => (res.body?.data?.type === 'documents' ? [] : [`data.type is ${res.body?.data?.type}, documented documents`]);

/** "returns type `indexing_tasks` with status, documents_received, enqueued_at"; "Adding documents returns an indexing task with status `enqueued`" */
const indexingTask = (res: HttpResult) => {
  const a = res.body?.data?.attributes ?? {};
  return a.status === 'enqueued' && Number.isInteger(a.documents_received) && typeof a.enqueued_at === 'string' ? [] : [`indexing task: ${JSON.stringify(a).slice(0, 300)}`];
};

describe('the products and search document', () => {
  test('its rows were extracted (documents/products-and-search.json)', () => {
    expect(doc.endpoints.length).toBeGreaterThan(60);
    expect(doc.errors.length).toBe(18);
  });
  afterAll(() =>
    printCoverage('products-and-search.md', {
      paths: doc.endpoints.length,
      'named shapes': doc.shapes.length,
      fields: doc.fields.filter((f) => f.kind !== 'query').length,
      'query parameters': doc.fields.filter((f) => f.kind === 'query').length,
      'error codes': doc.errors.length,
      rules: RULES.length + SEARCH_RULES.length,
      'resources with fields not shown': doc.fieldsNotShown.length,
    }),
  );
});

pathSuite(
  doc,
  {
    known: KNOWN_FIXED_ELSEWHERE,
    styles: {
      // "Options body: `data.options` array of objects name, values": a paragraph under the table
      'PUT /v1/products/:product_id/options': 'inData',
    },
    // "response `data.suggestions` (array of strings) and `data.products`": fields right under data
    flat: ['GET /v1/products/search/suggest'],
    query: {
      'GET /v1/products/search': 'q=fixture',
      'GET /v1/products/search/suggest': 'q=fix',
    },
    attributes: {
      // facet_distribution and facet_stats are answered "when facets were requested"
      'POST /search/v1/indexes/:index_uid/search': () => ({ query: 'fixture', facets: ['genre'] }),
    },
    extra: {
      'GET /v1/products/search': textSearchMeta,
      'GET /v1/products/search/suggest': suggestShape,
      'POST /v1/products/search': visualSearch,
      'GET /v1/products/:id/inventory': resourceCheck(doc, 'inventory'),
      'POST /v1/products/:id/inventory/reserve': resourceCheck(doc, 'reservation'),
      'POST /v1/products/:id/files/:file_id/process': resourceCheck(doc, 'file_processing_result'),
      'GET /search/v1/indexes/:index_uid': resourceCheck(doc, 'index'),
      'GET /search/v1/tasks/:task_id': resourceCheck(doc, 'task'),
      'POST /search/v1/indexes/:index_uid/documents': indexingTask,
      'GET /search/v1/indexes/:index_uid/documents/:document_id': documentShape,
      'POST /search/v1/indexes/:index_uid/search': shapeCheck('search_results'),
      'POST /search/v1/indexes/:index_uid/suggest': shapeCheck('suggestions'),
      'GET /search/v1/indexes/:index_uid/analytics/popular-searches': shapeCheck('popular-searches'),
      'GET /search/v1/indexes/:index_uid/analytics/no-result-searches': shapeCheck('no-result-searches'),
      'GET /search/v1/indexes/:index_uid/analytics/clicks': shapeCheck('clicks'),
    },
  },
  tenant,
);

const product = async (t: SecTenant, attrs: Record<string, unknown> = {}) => {
  const r = await rest('POST', '/v1/products', { body: jsonApi('products', { name: 'Contract', sku: uniq('SKU-'), ...attrs }), headers: t.keyHeaders });
  if (r.status !== 201) throw new Error(`product: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.id as string;
};

const inList = (id: string) => (res: HttpResult) => {
  const hit = (res.body?.data ?? []).find((d: any) => d.id === id);
  return hit ? { id: hit.id, type: hit.type, ...hit.attributes } : undefined;
};

const answered = async (_t: SecTenant, created: HttpResult) => ({ ...created, status: 200 });

async function taskDone(t: SecTenant, id: string): Promise<HttpResult> {
  let r: HttpResult = await rest('GET', `/search/v1/tasks/${id}`, { headers: t.keyHeaders });
  for (let i = 0; i < 100 && !['succeeded', 'failed', 'canceled'].includes(r.body?.data?.attributes?.status); i++) {
    await sleep(100);
    r = await rest('GET', `/search/v1/tasks/${id}`, { headers: t.keyHeaders });
  }
  return r;
}

async function indexWithDocs(t: SecTenant, settings: Record<string, unknown> = {}): Promise<{ uid: string; task: HttpResult }> {
  const uid = uniq('idx_');
  await rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid, primary_key: 'id', settings: { filterable_attributes: ['genre', 'year'], sortable_attributes: ['year'], ...settings } }), headers: t.keyHeaders });
  const add = await rest('POST', `/search/v1/indexes/${uid}/documents`, {
    body: jsonApi('documents', { documents: [{ id: 'd1', title: 'Dune', genre: 'scifi', year: 1965 }, { id: 'd2', title: 'Emma', genre: 'classic', year: 1815 }] }),
    headers: t.keyHeaders,
  });
  return { uid, task: await taskDone(t, add.body.data.id) };
}

const FUTURE = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

fieldSuite(
  doc,
  {
    product: {
      values: async (t) => ({
        name: 'Contract bundle',
        sku: uniq('SKU-'),
        description: 'every documented field',
        short_description: 'short',
        status: 'active',
        type: 'bundle',
        price: { amount: 1999, currency: 'USD', compare_at: 2499 },
        cost: { amount: 900, currency: 'USD' },
        inventory: { quantity: 10, track_stock: true, allow_backorder: false, low_stock_threshold: 3 },
        weight: { value: 1.5, unit: 'kg' },
        dimensions: { length: 10, width: 5.5, height: 2, unit: 'cm' },
        attributes: { color: 'red' },
        seo: { title: 'Contract', description: 'SEO description', slug: uniq('contract-') },
        metadata: { source: 'contract' },
        bundle_items: [{ product_id: await product(t), quantity: 2, required: true }],
        bundle_pricing: 'sum',
      }),
      create: (t, v) => rest('POST', '/v1/products', { body: jsonApi('products', v), headers: t.keyHeaders }),
      read: (t, c) => rest('GET', `/v1/products/${c.body.data.id}`, { headers: t.keyHeaders }),
    },
    variant: {
      values: () => ({ name: 'Medium', sku: uniq('V-'), options: { Size: 'M' }, price_modifier: { type: 'fixed', amount: 500 }, inventory: { quantity: 5, track_stock: true }, weight: { value: 0.5, unit: 'kg' }, position: 2 }),
      create: async (t, v) => {
        const id = await product(t, { price: { amount: 1000, currency: 'USD' } });
        t.extra.variantProduct = id;
        await rest('PUT', `/v1/products/${id}/options`, { body: { data: { options: [{ name: 'Size', values: ['S', 'M'] }] } }, headers: t.keyHeaders });
        return rest('POST', `/v1/products/${id}/variants`, { body: jsonApi('variants', v), headers: t.keyHeaders });
      },
      read: (t) => rest('GET', `/v1/products/${t.extra.variantProduct}/variants`, { headers: t.keyHeaders }),
      fields: (read, created) => inList(created.body.data.id)(read),
    },
    category: {
      values: async (t) => {
        const parent = await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Parent' }), headers: t.keyHeaders });
        return { name: 'Contract category', slug: uniq('cat-'), description: 'every documented field', parent_id: parent.body.data.id, position: 0, seo: { title: 'Cat', description: 'Cat SEO' }, metadata: { source: 'contract' } };
      },
      create: (t, v) => rest('POST', '/v1/categories', { body: jsonApi('categories', v), headers: t.keyHeaders }),
      read: (t, c) => rest('GET', `/v1/categories/${c.body.data.id}`, { headers: t.keyHeaders }),
    },
    collection: {
      values: () => ({
        name: 'Contract collection',
        slug: uniq('col-'),
        description: 'every documented field',
        type: 'automated',
        status: 'active',
        start_date: FUTURE(-1),
        end_date: FUTURE(30),
        rules: { match: 'all', conditions: [{ field: 'price', operator: 'greater_than', value: 1000 }] },
        seo: { title: 'Col', description: 'Col SEO' },
      }),
      create: (t, v) => rest('POST', '/v1/collections', { body: jsonApi('collections', v), headers: t.keyHeaders }),
      read: (t, c) => rest('GET', `/v1/collections/${c.body.data.id}`, { headers: t.keyHeaders }),
    },
    inventory: {
      values: () => ({}),
      create: async (t) => rest('GET', `/v1/products/${await product(t, { inventory: { quantity: 7 } })}/inventory`, { headers: t.keyHeaders }),
      read: answered,
    },
    reservation: {
      values: () => ({ quantity: 2, order_id: uniq('order-'), expires_at: FUTURE(1) }),
      create: async (t, v) => rest('POST', `/v1/products/${await product(t, { inventory: { quantity: 5 } })}/inventory/reserve`, { body: { data: v }, headers: t.keyHeaders }),
      read: (t, c) => rest('GET', `/v1/inventory/reservations/${c.body.data.id}`, { headers: t.keyHeaders }),
    },
    location: {
      values: () => ({ name: 'Main warehouse', code: uniq('wh'), type: 'warehouse', address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' }, is_default: true }),
      create: (t, v) => rest('POST', '/v1/inventory/locations', { body: jsonApi('locations', v), headers: t.keyHeaders }),
      read: (t) => rest('GET', '/v1/inventory/locations', { headers: t.keyHeaders }),
      fields: (read, created) => inList(created.body.data.id)(read),
    },
    image: {
      // multipart text fields: their documented types as written in a form
      values: () => ({ alt_text: 'A red mug', position: 0, is_primary: true }),
      create: async (t, v) => {
        t.extra.imageProduct = await product(t);
        const form = imageForm(await sampleImage('png'), { alt_text: String(v.alt_text), position: String(v.position), is_primary: String(v.is_primary) }, 'mug.png');
        return rest('POST', `/v1/products/${t.extra.imageProduct}/images`, { form, headers: t.keyHeaders });
      },
      read: (t) => rest('GET', `/v1/products/${t.extra.imageProduct}/images`, { headers: t.keyHeaders }),
      fields: (read, created) => inList(created.body.data.id)(read),
    },
    scheduled_price: {
      values: () => ({ name: 'Summer sale', price: { amount: 1500, currency: 'USD' }, compare_at: { amount: 2000, currency: 'USD' }, starts_at: FUTURE(1), ends_at: FUTURE(10) }),
      create: async (t, v) => rest('POST', `/v1/products/${await product(t, { price: { amount: 2000, currency: 'USD' } })}/scheduled-prices`, { body: jsonApi('scheduled_price', v), headers: t.keyHeaders }),
      read: answered,
    },
    file_processing_result: {
      values: () => ({}),
      create: async (t) => {
        const id = await product(t);
        const img = await rest('POST', `/v1/products/${id}/images`, { form: imageForm(await sampleImage('png', 96, 64), {}, 'photo.png'), headers: t.keyHeaders });
        return rest('POST', `/v1/products/${id}/files/${img.body.data.id}/process`, { body: { data: { processing_mode: 'object_detection' } }, headers: t.keyHeaders });
      },
      read: answered,
    },
    index: {
      values: () => ({ uid: uniq('idx_'), primary_key: 'id', settings: { searchable_attributes: ['title'], filterable_attributes: ['genre'], sortable_attributes: ['year'] } }),
      create: (t, v) => rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', v), headers: t.keyHeaders }),
      read: (t, _c, v) => rest('GET', `/search/v1/indexes/${v.uid}`, { headers: t.keyHeaders }),
    },
    search_hit: {
      values: () => ({}),
      create: async (t) => {
        const { uid } = await indexWithDocs(t);
        return rest('POST', `/search/v1/indexes/${uid}/search`, { body: jsonApi('search_queries', { query: 'dune', attributes_to_highlight: ['title'] }), headers: t.keyHeaders });
      },
      read: answered,
      fields: (read) => read.body?.data?.attributes?.hits?.[0],
    },
    task: {
      values: () => ({}),
      create: async (t) => (await indexWithDocs(t)).task,
      read: answered,
    },
    // the search request's attributes: accepted together in one search
    search_request_type_search_queries_attributes: {
      acceptedOnly: true,
      values: () => ({ query: 'dune', limit: 5, offset: 0, filter: 'genre = scifi', facets: ['genre'], sort: ['year:desc'], attributes_to_highlight: ['title'], highlight_pre_tag: '<em>', highlight_post_tag: '</em>' }),
      create: async (t, v) => rest('POST', `/search/v1/indexes/${(await indexWithDocs(t)).uid}/search`, { body: jsonApi('search_queries', v), headers: t.keyHeaders }),
      read: answered,
    },
  },
  KNOWN_FIXED_ELSEWHERE,
  tenant,
);

const P = '/v1/products';
queryParamSuite(
  doc,
  {
    'query.products.page[number]': { path: P, query: () => 'page[number]=1' },
    'query.products.page[size]': { path: P, query: () => 'page[size]=100' },
    'query.products.filter[status]': { path: P, query: () => 'filter[status]=archived' },
    'query.products.filter[category]': {
      path: P,
      query: async (t) => {
        const slug = uniq('shoes-');
        await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Shoes', slug }), headers: t.keyHeaders });
        return `filter[category]=${slug}`;
      },
    },
    'query.products.filter[in_stock]': { path: P, query: () => 'filter[in_stock]=true' },
    'query.products.filter[type]': { path: P, query: () => 'filter[type]=service' },
    'query.products.filter[price_min]': { path: P, query: () => 'filter[price_min]=100' },
    'query.products.filter[price_max]': { path: P, query: () => 'filter[price_max]=5000' },
    'query.products.filter[created_after]': { path: P, query: () => `filter[created_after]=${encodeURIComponent('2024-01-01T00:00:00Z')}` },
    'query.products.search': { path: P, query: () => 'search=mug' },
    'query.products.sort': { path: P, query: () => 'sort=-created_at' },
    'query.products.include': { path: P, query: () => 'include=variants,categories,images' },
    'query.search.q': { path: `${P}/search`, query: () => 'q=mug' },
    'query.search.filters': { path: `${P}/search`, query: () => 'q=mug&filters[price][min]=100&filters[price][max]=5000' },
    'query.search.sort': { path: `${P}/search`, query: () => 'q=mug&sort=relevance' },
    'query.search.page': { path: `${P}/search`, query: () => 'q=mug&page=2' },
    'query.search.per_page': { path: `${P}/search`, query: () => 'q=mug&per_page=5' },
    'query.search.use_object_detection': { path: `${P}/search`, query: () => 'q=mug&use_object_detection=false' },
  },
  KNOWN_FIXED_ELSEWHERE,
  (plan) => tenant(plan),
  (t) => t.keyHeaders,
);

/** One tenant for the error recipes (each makes its own products and indexes). */
let errorTenant: Promise<SecTenant> | undefined;
const recipeTenant = () => (errorTenant ??= tenant());

const productErrors = (d: ContractDocument) => d.errors.filter((e) => !e.id.startsWith('error.search.'));
const searchErrors = (d: ContractDocument) => d.errors.filter((e) => e.id.startsWith('error.search.'));

const reserve = (t: SecTenant, id: string, data: Record<string, unknown>) => rest('POST', `/v1/products/${id}/inventory/reserve`, { body: { data }, headers: t.keyHeaders });

errorSuite(
  doc,
  'products',
  productErrors,
  {
    PRODUCT_NOT_FOUND: async () => rest('GET', `${P}/prd_missing`, { headers: (await recipeTenant()).keyHeaders }),
    SKU_ALREADY_EXISTS: async () => {
      const t = await recipeTenant();
      const sku = uniq('SKU-');
      await product(t, { sku });
      return rest('POST', P, { body: jsonApi('products', { name: 'Again', sku }), headers: t.keyHeaders });
    },
    INVALID_PRICE: async () => {
      const t = await recipeTenant();
      return rest('POST', P, { body: jsonApi('products', { name: 'Cents', sku: uniq('SKU-'), price: { amount: 19.99, currency: 'USD' } }), headers: t.keyHeaders });
    },
    INSUFFICIENT_INVENTORY: async () => {
      const t = await recipeTenant();
      return reserve(t, await product(t, { inventory: { quantity: 2 } }), { quantity: 3, order_id: 'A' });
    },
    INVENTORY_RESERVED: async () => {
      const t = await recipeTenant();
      const id = await product(t, { inventory: { quantity: 5 } });
      await reserve(t, id, { quantity: 3, order_id: 'A' });
      return reserve(t, id, { quantity: 3, order_id: 'B' });
    },
    VARIANT_NOT_FOUND: async () => {
      const t = await recipeTenant();
      return rest('PATCH', `${P}/${await product(t)}/variants/var_missing`, { body: jsonApi('variants', { name: 'x' }), headers: t.keyHeaders });
    },
    CATEGORY_NOT_FOUND: async () => rest('GET', '/v1/categories/cat_missing', { headers: (await recipeTenant()).keyHeaders }),
    INVALID_OPTION_VALUES: async () => {
      const t = await recipeTenant();
      const id = await product(t);
      await rest('PUT', `${P}/${id}/options`, { body: { data: { options: [{ name: 'Size', values: ['S', 'M'] }] } }, headers: t.keyHeaders });
      return rest('POST', `${P}/${id}/variants`, { body: jsonApi('variants', { sku: uniq('V-'), options: { Size: 'XL' } }), headers: t.keyHeaders });
    },
    BUNDLE_INVALID: async () => {
      const t = await recipeTenant();
      return rest('POST', P, { body: jsonApi('products', { name: 'Empty bundle', sku: uniq('B-'), type: 'bundle', bundle_items: [] }), headers: t.keyHeaders });
    },
    IMAGE_UPLOAD_FAILED: async () => {
      const t = await recipeTenant();
      return rest('POST', `${P}/${await product(t)}/images`, { form: imageForm(Buffer.from('not an image at all'), {}, 'notes.txt'), headers: t.keyHeaders });
    },
  },
  KNOWN_FIXED_ELSEWHERE,
);

const search = (t: SecTenant, uid: string, attrs: Record<string, unknown>) => rest('POST', `/search/v1/indexes/${uid}/search`, { body: jsonApi('search_queries', attrs), headers: t.keyHeaders });

errorSuite(
  doc,
  'search',
  searchErrors,
  {
    index_not_found: async () => rest('GET', '/search/v1/indexes/idx_missing', { headers: (await recipeTenant()).keyHeaders }),
    document_not_found: async () => {
      const t = await recipeTenant();
      return rest('GET', `/search/v1/indexes/${(await indexWithDocs(t)).uid}/documents/missing`, { headers: t.keyHeaders });
    },
    invalid_filter_syntax: async () => {
      const t = await recipeTenant();
      return search(t, (await indexWithDocs(t)).uid, { query: 'dune', filter: 'genre <> scifi' });
    },
    invalid_sort_attribute: async () => {
      const t = await recipeTenant();
      return search(t, (await indexWithDocs(t)).uid, { query: 'dune', sort: ['title:asc'] });
    },
    attribute_not_filterable: async () => {
      const t = await recipeTenant();
      return search(t, (await indexWithDocs(t)).uid, { query: 'dune', filter: 'title = Dune' });
    },
    max_documents_exceeded: async () => {
      const t = await recipeTenant();
      const uid = (await indexWithDocs(t)).uid;
      const many = Array.from({ length: 10_001 }, (_, i) => ({ id: i }));
      return rest('POST', `/search/v1/indexes/${uid}/documents`, { body: jsonApi('documents', { documents: many }), headers: t.keyHeaders });
    },
    index_already_exists: async () => {
      const t = await recipeTenant();
      return rest('POST', '/search/v1/indexes', { body: jsonApi('indexes', { uid: (await indexWithDocs(t)).uid }), headers: t.keyHeaders });
    },
    // the Starter plan's 50 searches per second: one multi-search of 100 queries counts 100 searches
    rate_limit_exceeded: async () => {
      const t = await tenant('starter');
      const { uid } = await indexWithDocs(t);
      const queries = Array.from({ length: 100 }, () => ({ index_uid: uid, query: 'dune' }));
      let last: HttpResult | undefined;
      for (let attempt = 0; attempt < 3 && last?.status !== 429; attempt++) {
        await sleep(1000 - (Date.now() % 1000));
        last = await rest('POST', '/search/v1/multi-search', { body: jsonApi('multi_search_queries', { queries }), headers: t.keyHeaders });
      }
      return last!;
    },
  },
  KNOWN_FIXED_ELSEWHERE,
);

/** Rules the document writes in prose, each a row. */
const RULES: { id: string; check: () => Promise<string[]> }[] = [
  {
    // PATCH /v1/products/:id "update (attributes to change, with type, id)": every writable field of the Product table
    id: 'rule.product-patch-every-field',
    check: async () => {
      const t = await recipeTenant();
      const id = await product(t);
      const change = {
        description: 'changed',
        short_description: 'changed short',
        status: 'archived',
        price: { amount: 1250, currency: 'EUR', compare_at: 1500 },
        cost: { amount: 700, currency: 'EUR' },
        weight: { value: 2.5, unit: 'lb' },
        dimensions: { length: 1, width: 2, height: 3.5, unit: 'in' },
        attributes: { material: 'steel' },
        seo: { title: 'New', description: 'New SEO', slug: uniq('new-') },
        metadata: { changed: true },
      };
      const r = await rest('PATCH', `${P}/${id}`, { body: { data: { type: 'products', id, attributes: change } }, headers: t.keyHeaders });
      if (r.status !== 200) return [`PATCH: ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`];
      const back = (await rest('GET', `${P}/${id}`, { headers: t.keyHeaders })).body?.data?.attributes ?? {};
      return Object.entries(change)
        .filter(([k, v]) => JSON.stringify(Object.fromEntries(Object.keys(v as object).map((f) => [f, back[k]?.[f]]))) !== JSON.stringify(v) && JSON.stringify(back[k]) !== JSON.stringify(v))
        .map(([k, v]) => `${k}: wrote ${JSON.stringify(v)}, read back ${JSON.stringify(back[k])}`);
    },
  },
  {
    // GET /v1/products/search "filters: facet filters (for example filters[category] …)"; meta.facets.category
    id: 'rule.product-search-by-category',
    check: async () => {
      const t = await recipeTenant();
      const slug = uniq('mugs-');
      const cat = await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Mugs', slug }), headers: t.keyHeaders });
      const name = uniq('Mug');
      const id = await product(t, { name, status: 'active' });
      await rest('POST', `/v1/categories/${cat.body.data.id}/products`, { body: { data: { product_ids: [id] } }, headers: t.keyHeaders });
      let r: HttpResult | undefined;
      for (let i = 0; i < 20; i++) {
        r = await rest('GET', `${P}/search?q=${encodeURIComponent(name)}&filters[category]=${slug}`, { headers: t.keyHeaders });
        if ((r.body?.data ?? []).some((p: any) => p.id === id)) break;
        await sleep(250);
      }
      const out: string[] = [];
      if (!(r?.body?.data ?? []).some((p: any) => p.id === id)) out.push(`a product of category ${slug} is not found with filters[category]: ${JSON.stringify(r?.body).slice(0, 300)}`);
      if (!(r?.body?.meta?.facets?.category ?? []).length) out.push(`meta.facets.category is empty: ${JSON.stringify(r?.body?.meta?.facets)}`);
      return out;
    },
  },
  {
    // "Delete of a product is a soft delete unless permanent=true"
    id: 'rule.product-soft-delete',
    check: async () => {
      const t = await recipeTenant();
      const soft = await product(t);
      const hard = await product(t);
      const out: string[] = [];
      await rest('DELETE', `${P}/${soft}`, { headers: t.keyHeaders });
      await rest('DELETE', `${P}/${hard}?permanent=true`, { headers: t.keyHeaders });
      const restored = await rest('POST', `${P}/${soft}/restore`, { headers: t.keyHeaders });
      if (restored.status !== 200) out.push(`a soft-deleted product cannot be restored: ${restored.status}`);
      const gone = await rest('POST', `${P}/${hard}/restore`, { headers: t.keyHeaders });
      if (gone.status !== 404) out.push(`a permanently deleted product answers ${gone.status} to restore`);
      return out;
    },
  },
];

rowSuite('rules of products-and-search', RULES, KNOWN_FIXED_ELSEWHERE, async (r) => r.check());

/** An index of three books with a geo point each, filterable and sortable as the search rows need. */
async function booksIndex(t: SecTenant): Promise<string> {
  const uid = uniq('idx_');
  await rest('POST', '/search/v1/indexes', {
    body: jsonApi('indexes', { uid, primary_key: 'id', settings: { filterable_attributes: ['genre', 'year', 'isbn', '_geo'], sortable_attributes: ['year', '_geo'] } }),
    headers: t.keyHeaders,
  });
  const add = await rest('POST', `/search/v1/indexes/${uid}/documents`, {
    body: jsonApi('documents', {
      documents: [
        { id: 'b1', title: 'Dune', genre: 'scifi', year: 1965, isbn: '0441013597', _geo: { lat: 48.8566, lng: 2.3522 } },
        { id: 'b2', title: 'Emma', genre: 'classic', year: 1815, _geo: { lat: 51.5074, lng: -0.1278 } },
        { id: 'b3', title: 'Neuromancer', genre: 'scifi', year: 1984, _geo: { lat: 35.6762, lng: 139.6503 } },
      ],
    }),
    headers: t.keyHeaders,
  });
  await taskDone(t, add.body.data.id);
  return uid;
}

let books: Promise<{ t: SecTenant; uid: string }> | undefined;
const booksOnce = () => (books ??= recipeTenant().then(async (t) => ({ t, uid: await booksIndex(t) })));

const hitIds = (r: HttpResult): string[] => (r.body?.data?.attributes?.hits ?? []).map((h: any) => String(h.id));

/** "Operators: =, !=, >, >=, <, <=, IN [..], NOT IN [..], EXISTS, NOT EXISTS, AND, OR": each with the ids it must find. */
const FILTERS: [string, string, string[]][] = [
  ['=', 'genre = scifi', ['b1', 'b3']],
  ['!=', 'genre != scifi', ['b2']],
  ['>', 'year > 1965', ['b3']],
  ['>=', 'year >= 1965', ['b1', 'b3']],
  ['<', 'year < 1965', ['b2']],
  ['<=', 'year <= 1965', ['b1', 'b2']],
  ['IN', 'genre IN [classic, poetry]', ['b2']],
  ['NOT IN', 'genre NOT IN [classic]', ['b1', 'b3']],
  ['EXISTS', 'isbn EXISTS', ['b1']],
  ['NOT EXISTS', 'isbn NOT EXISTS', ['b2', 'b3']],
  ['AND', 'genre = scifi AND year < 1970', ['b1']],
  ['OR', 'year < 1900 OR year > 1980', ['b2', 'b3']],
];

const SEARCH_RULES: { id: string; check: () => Promise<string[]> }[] = [
  ...FILTERS.map(([op, filter, want]) => ({
    id: `rule.filter-operator.${op}`,
    check: async () => {
      const { t, uid } = await booksOnce();
      const r = await search(t, uid, { query: '', filter });
      const got = hitIds(r).sort();
      return r.status === 200 && JSON.stringify(got) === JSON.stringify(want) ? [] : [`filter "${filter}": ${r.status} ids ${JSON.stringify(got)}, expected ${JSON.stringify(want)} ${r.status !== 200 ? JSON.stringify(r.body).slice(0, 300) : ''}`];
    },
  })),
  {
    // "Typo tolerance is on by default"
    id: 'rule.typo-tolerance-default',
    check: async () => {
      const { t, uid } = await booksOnce();
      const r = await search(t, uid, { query: 'nueromancer' });
      return hitIds(r).includes('b3') ? [] : [`"nueromancer" does not find Neuromancer: ${JSON.stringify(r.body).slice(0, 300)}`];
    },
  },
  {
    // "Geographic search uses the filter function _geoRadius(<lat>, <lng>, <radius>) and the sort entry _geoPoint(<lat>, <lng>):asc"
    id: 'rule.geo-radius-and-sort',
    check: async () => {
      const { t, uid } = await booksOnce();
      const near = await search(t, uid, { query: '', filter: '_geoRadius(48.85, 2.35, 500000)' });
      const sorted = await search(t, uid, { query: '', sort: ['_geoPoint(51.5, -0.12):asc'] });
      const out: string[] = [];
      if (JSON.stringify(hitIds(near).sort()) !== JSON.stringify(['b1', 'b2'])) out.push(`_geoRadius 500 km around Paris: ${near.status} ${JSON.stringify(hitIds(near))}`);
      if (JSON.stringify(hitIds(sorted)) !== JSON.stringify(['b2', 'b1', 'b3'])) out.push(`_geoPoint(London):asc: ${sorted.status} ${JSON.stringify(hitIds(sorted))}`);
      return out;
    },
  },
  {
    // "Built-in: words, typo, proximity, attribute, sort, exactness. Custom entries of the form <attribute>:asc or <attribute>:desc may follow."
    id: 'rule.ranking-rules-custom',
    check: async () => {
      const t = await recipeTenant();
      const uid = await booksIndex(t);
      const r = await rest('PUT', `/search/v1/indexes/${uid}/settings/ranking-rules`, { body: jsonApi('ranking_rules', { ranking_rules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness', 'year:desc'] }), headers: t.keyHeaders });
      if (r.status > 299) return [`ranking rules with a custom entry: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`];
      await taskDone(t, r.body.data.id);
      const s = await search(t, uid, { query: '', filter: 'genre = scifi' });
      return JSON.stringify(hitIds(s)) === JSON.stringify(['b3', 'b1']) ? [] : [`year:desc does not order the hits: ${JSON.stringify(hitIds(s))}`];
    },
  },
  {
    // "Relationships on create: relationships.categories.data array of objects with type = categories and id"
    id: 'rule.product-create-relationships-categories',
    check: async () => {
      const t = await recipeTenant();
      const cat = await rest('POST', '/v1/categories', { body: jsonApi('categories', { name: 'Kitchen' }), headers: t.keyHeaders });
      const r = await rest('POST', P, {
        body: { data: { type: 'products', attributes: { name: 'Kettle', sku: uniq('SKU-') }, relationships: { categories: { data: [{ type: 'categories', id: cat.body.data.id }] } } } },
        headers: t.keyHeaders,
      });
      if (r.status !== 201) return [`create with relationships.categories: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`];
      const back = await rest('GET', `${P}/${r.body.data.id}?include=categories`, { headers: t.keyHeaders });
      return JSON.stringify(back.body).includes(cat.body.data.id) ? [] : [`the category is not on the product: ${JSON.stringify(back.body).slice(0, 300)}`];
    },
  },
];

rowSuite('search and catalog rules of products-and-search', SEARCH_RULES, KNOWN_FIXED_ELSEWHERE, async (r) => r.check());

/**
 * "Fields of category, collection and location responses: not shown": the answers may carry more,
 * but the request fields are listed (Category, Collection, Location), so an attribute beyond them
 * is refused like anywhere else.
 */
const refuses = (path: string, type: string, attrs: (t: SecTenant) => Record<string, unknown>): FieldsNotShownPlan => ({
  refuses: { service: 'products', write: (t, x) => rest('POST', path, { body: jsonApi(type, { ...attrs(t), ...x }), headers: t.keyHeaders }) },
});

fieldsNotShownSuite(
  doc,
  {
    category: refuses('/v1/categories', 'categories', () => ({ name: 'Refused' })),
    collection: refuses('/v1/collections', 'collections', () => ({ name: 'Refused', type: 'manual' })),
    location: refuses('/v1/inventory/locations', 'locations', () => ({ name: 'Refused', code: uniq('L') })),
  },
  KNOWN_FIXED_ELSEWHERE,
  () => tenant(),
);
