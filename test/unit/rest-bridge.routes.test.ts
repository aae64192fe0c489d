import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { loadApiSchema } from '../../rest-bridge/api-schema.js';
import { deriveRoutes } from '../../rest-bridge/derive.js';
import { markFreeForm } from '../../rest-bridge/jsonapi.js';
import { loadOperations, splitOperations } from '../../rest-bridge/operations.js';
import { graphqlName } from '../../rest-bridge/naming.js';
import { parseQuery } from '../../rest-bridge/query.js';
import { ROUTES } from '../../rest-bridge/routes/index.js';
import type { Route, RouteInput } from '../../rest-bridge/types.js';

const ops = loadOperations();
const derived = deriveRoutes(ROUTES, ops, loadApiSchema());

/** What the handler does with an operation's data: mark its free-form values, then render. */
function render(r: Route, data: Record<string, any>, input: RouteInput) {
  markFreeForm(data, derived.get(r)!.freeForm);
  return r.result(data, input);
}

function sampleInput(r: Route, query = ''): RouteInput {
  const params = Object.fromEntries([...r.path.matchAll(/:(\w+)/g)].map((m) => [m[1], `${m[1]}-value`]));
  // the attributes a route requires (documented in its body) are there, as a well-formed request has them
  const attributes = Object.fromEntries((r.body?.required ?? []).map((n) => [graphqlName(n), null]));
  return { params, query: parseQuery(query), attributes };
}

function find(method: string, path: string): Route {
  const r = ROUTES.find((x) => x.method === method && x.path === path);
  if (!r) throw new Error(`no route ${method} ${path}`);
  return r;
}

describe('rest-bridge route table and operations', () => {
  test('every route names an operation of its own service file, named after the route', () => {
    for (const r of ROUTES) {
      const op = ops.get(r.operation);
      expect(op).toBeDefined();
      expect(op!.service).toBe(r.service);
      expect(r.operation).toMatch(/^[A-Z][A-Za-z]+$/);
    }
  });

  test('each operation source is standalone: one operation plus exactly the fragments it uses', () => {
    for (const [name, op] of ops) {
      const doc = parse(op.source);
      const defs = doc.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode[];
      expect(defs.map((d) => d.name?.value)).toEqual([name]);
    }
    expect(ops.get('ListProducts')!.source).toContain('fragment ProductFields');
    expect(ops.get('RegisterIdentity')!.source).not.toContain('fragment');
  });

  test('route variables match the operation variable definitions (all required ones present, no extras)', () => {
    for (const r of ROUTES) {
      const def = parse(ops.get(r.operation)!.source).definitions[0] as OperationDefinitionNode;
      const declared = (def.variableDefinitions ?? []).map((v) => v.variable.name.value).sort();
      const required = (def.variableDefinitions ?? []).filter((v) => v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue).map((v) => v.variable.name.value);
      const given = Object.keys(r.variables(sampleInput(r)));
      for (const g of given) expect(declared).toContain(g);
      for (const q of required) expect(given).toContain(q);
    }
  });

  test('splitOperations refuses anonymous operations and unknown fragments', () => {
    expect(() => splitOperations('ai', 'query { a }')).toThrow(/needs a name/);
    expect(() => splitOperations('ai', 'query A { ...Missing }')).toThrow(/unknown fragment Missing/);
  });

  test('ListProducts: page[number] and page[size] map to page/pageSize; meta is total, page, per_page', () => {
    const r = find('GET', '/v1/products');
    // unset filters and sort are undefined: the gateway client leaves them out of the request
    expect(r.variables(sampleInput(r))).toEqual({ page: 1, pageSize: 20, filter: undefined, sort: undefined, withCategories: false, withImages: false, withVariants: false });
    expect(r.variables(sampleInput(r, 'page[number]=3&page[size]=100'))).toMatchObject({ page: 3, pageSize: 100, sort: undefined, withVariants: false });
    expect(() => r.variables(sampleInput(r, 'page[size]=101'))).toThrow(/page\[size\]/);
    const doc = render(r, { products: { items: [{ id: 'prod_1', name: 'A', price: { amount: 100, currency: 'USD', compareAt: null, formatted: '$1.00', compareAtFormatted: null }, attributes: { someKey: 1 } }], total: 7, page: 3, pageSize: 2 } }, sampleInput(r));
    expect(doc).toEqual({
      data: [{ id: 'prod_1', type: 'products', attributes: { name: 'A', price: { amount: 100, currency: 'USD', compare_at: null, formatted: '$1.00', compare_at_formatted: null }, attributes: { someKey: 1 } } }],
      meta: { total: 7, page: 3, per_page: 2 },
    });
  });

  test('CreateApiKey: path params and body to variables; key_id in the attributes', () => {
    const r = find('POST', '/accounts/:url_id/apps/:app_id/api_keys');
    expect(r.variables({ ...sampleInput(r), attributes: { name: 'k', keyType: 'secret' } })).toEqual({ accountUrlId: 'url_id-value', appId: 'app_id-value', input: { name: 'k', keyType: 'secret' } });
    const doc = r.result({ createApiKey: { id: 'key_1', keyId: 'sk_live_sh_x', keyType: 'secret', allowedIps: [] } }, sampleInput(r)) as any;
    expect(doc.data).toEqual({ id: 'key_1', type: 'api_keys', attributes: { unique_id: 'key_1', key_id: 'sk_live_sh_x', key_type: 'secret', allowed_ips: [] } });
  });

  test('platform resources keep settings and metadata keys as stored', () => {
    const r = find('POST', '/platforms');
    const doc = render(r, { createPlatform: { id: 'plt_1', urlId: 'acme', schemaName: 's', settings: { darkMode: true }, metadata: { someKey: 1 } } }, sampleInput(r)) as any;
    expect(doc.data.attributes).toEqual({ unique_id: 'plt_1', url_id: 'acme', schema_name: 's', settings: { darkMode: true }, metadata: { someKey: 1 } });
  });

  test('indexes: settings render snake_case, synonym terms untouched', () => {
    const r = find('GET', '/search/v1/indexes/:index_uid');
    expect(r.variables(sampleInput(r))).toEqual({ uid: 'index_uid-value' });
    const doc = render(
      r,
      { index: { id: 'idx_1', uid: 'movies', primaryKey: 'id', numberOfDocuments: 0, isIndexing: false, settings: { stopWords: [], synonyms: { NewYork: ['NYC'] }, typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 } } } } },
      sampleInput(r),
    ) as any;
    expect(doc.data.attributes).toEqual({
      uid: 'movies',
      primary_key: 'id',
      number_of_documents: 0,
      is_indexing: false,
      settings: { stop_words: [], synonyms: { NewYork: ['NYC'] }, typo_tolerance: { enabled: true, min_word_size_for_typos: { one_typo: 5, two_typos: 9 } } },
    });
  });

  test('RegisterIdentity: type identity with user_unique_id, status, registered_at', () => {
    const r = find('POST', '/identities/:user_unique_id/register');
    expect(r.body).toBeUndefined();
    expect(r.status).toBe(201);
    expect(r.variables(sampleInput(r))).toEqual({ userUniqueId: 'user_unique_id-value' });
    expect(r.result({ registerIdentity: { id: 'idn_1', userUniqueId: 'u1', status: 'active', registeredAt: '2026-01-01T00:00:00.000Z' } }, sampleInput(r))).toEqual({
      data: { id: 'idn_1', type: 'identity', attributes: { user_unique_id: 'u1', status: 'active', registered_at: '2026-01-01T00:00:00.000Z' } },
    });
  });
});

describe('fragments shared by the files of one service', () => {
  test('an operation may use a fragment defined in another file of its service', async () => {
    const { fragmentsOf, splitOperations: split } = await import('../../rest-bridge/operations.js');
    const files = [
      { file: 'search.graphql', text: 'fragment F on T { a }' },
      { file: 'search-x.graphql', text: 'query Q { t { ...F } }' },
    ];
    const ops = split('search', files[1].text, files[1].file, fragmentsOf(files));
    expect(ops[0].source).toContain('fragment F on T');
  });

  test('a fragment name defined twice in one service is refused, naming the file', async () => {
    const { fragmentsOf } = await import('../../rest-bridge/operations.js');
    expect(() => fragmentsOf([{ file: 'a.graphql', text: 'fragment F on T { a }' }, { file: 'b.graphql', text: 'fragment F on T { b }' }])).toThrow(/b\.graphql: fragment F is defined twice/);
  });
});
