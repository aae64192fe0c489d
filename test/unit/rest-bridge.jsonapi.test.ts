import { DomainError } from '../../lib/errors.js';
import { markFreeForm, parseEnvelope, resource, toGraphQLInput, toSnakeKeys } from '../../rest-bridge/jsonapi.js';
import { camelCase, graphqlName, restName, snakeCase } from '../../rest-bridge/naming.js';
import type { AttrField, AttrSpec } from '../../rest-bridge/types.js';

const str: AttrSpec = { kind: 'scalar', type: 'string' };
const int: AttrSpec = { kind: 'scalar', type: 'integer' };
const json: AttrSpec = { kind: 'json' };
const f = (graphql: string, spec: AttrSpec): AttrField => ({ graphql, spec, required: false });

function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError');
}

describe('rest-bridge case conversion', () => {
  test.each([
    ['compare_at', 'compareAt'],
    ['rate_limit_per_minute', 'rateLimitPerMinute'],
    ['allowed_ips', 'allowedIps'],
    ['min_word_size_for_typos', 'minWordSizeForTypos'],
    ['name', 'name'],
  ])('%s ⇄ %s', (snake, camel) => {
    expect(camelCase(snake)).toBe(camel);
    expect(snakeCase(camel)).toBe(snake);
  });

  test('snakeCase handles acronyms and digits', () => {
    expect(snakeCase('compareAtFormatted')).toBe('compare_at_formatted');
    expect(snakeCase('apiURLValue')).toBe('api_url_value');
    expect(snakeCase('oneTypo2')).toBe('one_typo2');
  });

  test('restName and graphqlName are inverse by rule', () => {
    expect(restName('compareAtFormatted')).toBe('compare_at_formatted');
    expect(graphqlName('compare_at_formatted')).toBe('compareAtFormatted');
  });

  test('toSnakeKeys converts recursively but keeps values marked free-form and drops __typename', () => {
    const data = {
      index: {
        __typename: 'Index',
        numberOfDocuments: 1,
        settings: { searchableAttributes: ['title'], synonyms: { hotDog: ['frankFurter'] }, typoTolerance: { minWordSizeForTypos: { oneTypo: 5 } } },
        metadata: { someKey: { innerKey: 1 } },
        hits: [{ fooBar: 1 }],
        list: [{ fooBar: 1 }],
      },
    };
    markFreeForm(data, { index: { settings: { synonyms: true }, metadata: true, hits: true } });
    expect(toSnakeKeys(data.index)).toEqual({
      number_of_documents: 1,
      settings: { searchable_attributes: ['title'], synonyms: { hotDog: ['frankFurter'] }, typo_tolerance: { min_word_size_for_typos: { one_typo: 5 } } },
      metadata: { someKey: { innerKey: 1 } },
      hits: [{ fooBar: 1 }],
      list: [{ foo_bar: 1 }],
    });
  });

  test('markFreeForm follows lists of objects (a page of products)', () => {
    const data = { products: { items: [{ id: 'p1', attributes: { shoeSize: 42 } }, { id: 'p2', attributes: { colorName: 'red' } }] } };
    markFreeForm(data, { products: { items: { attributes: true } } });
    expect(data.products.items.map((p) => resource('products', p).attributes)).toEqual([{ attributes: { shoeSize: 42 } }, { attributes: { colorName: 'red' } }]);
  });

  test('toGraphQLInput takes known attributes only, converts structured keys, passes json through', () => {
    const input = toGraphQLInput(
      {
        name: 'Shoe',
        price: { amount: 1999, currency: 'USD', compare_at: 2999 },
        attributes: { shoe_size: 42, Color: 'red' },
        id: 'ignored',
        created_at: 'ignored',
        status: null,
      },
      {
        name: f('name', str),
        status: f('status', str),
        price: f('price', { kind: 'object', fields: { amount: f('amount', int), currency: f('currency', str), compare_at: f('compareAt', int) } }),
        attributes: f('attributes', json),
      },
      { readOnly: new Set(['id', 'created_at']) },
    );
    expect(input).toEqual({ name: 'Shoe', status: null, price: { amount: 1999, currency: 'USD', compareAt: 2999 }, attributes: { shoe_size: 42, Color: 'red' } });
  });

  test('an attribute the endpoint does not take → 422 VALIDATION_FAILED naming it (camelCase gets a snake_case hint); relationship ids not taken are ignored', () => {
    const fields = { name: f('name', str), short_description: f('shortDescription', str), category_ids: f('categoryIds', { kind: 'list', items: str }) };
    expect(thrown(() => toGraphQLInput({ name: 'x', colour: 'red' }, fields))).toMatchObject({ code: 'VALIDATION_FAILED', opts: { parameter: 'colour' } });
    const camel = thrown(() => toGraphQLInput({ shortDescription: 'x' }, fields));
    expect(camel).toMatchObject({ code: 'VALIDATION_FAILED', opts: { parameter: 'shortDescription' } });
    expect(camel.message).toMatch(/did you mean short_description/);
    expect(toGraphQLInput({ name: 'x' }, fields, { linked: { category_ids: ['c1'], product_id: 'p1' } })).toEqual({ name: 'x', categoryIds: ['c1'] });
  });

  test('toGraphQLInput converts each object of a list of input objects', () => {
    const query: AttrSpec = { kind: 'object', fields: { index_uid: f('indexUid', str), filter: f('filter', json) } };
    expect(toGraphQLInput({ queries: [{ index_uid: 'm', filter: { a_b: 1 }, extra_key: 1 }] }, { queries: f('queries', { kind: 'list', items: query }) })).toEqual({
      queries: [{ indexUid: 'm', filter: { a_b: 1 }, extraKey: 1 }],
    });
  });

  test('toGraphQLInput leaves wrongly shaped values for GraphQL coercion to report', () => {
    expect(toGraphQLInput({ price: 12, rate_limit_per_minute: 'x' }, { price: f('price', { kind: 'object', fields: {} }), rate_limit_per_minute: f('rateLimitPerMinute', int) })).toEqual({
      price: 12,
      rateLimitPerMinute: 'x',
    });
    // unknown nested keys still convert, so GraphQL names them as unknown fields
    expect(toGraphQLInput({ price: { sale_amount: 1 } }, { price: f('price', { kind: 'object', fields: { amount: f('amount', int) } }) })).toEqual({ price: { saleAmount: 1 } });
  });
});

describe('rest-bridge JSON:API envelope', () => {
  test('returns the attributes of a well-formed document', () => {
    expect(parseEnvelope({ data: { type: 'products', attributes: { name: 'x' } } }, 'products')).toEqual({ name: 'x' });
    expect(parseEnvelope({ data: { type: 'products' } }, 'products')).toEqual({});
  });

  test.each([
    ['no body', undefined, 'data'],
    ['not an object', [1, 2], 'data'],
    ['data not an object', { data: 'x' }, 'data'],
    ['data is null', { data: null }, 'data'],
    ['no type', { data: { attributes: {} } }, 'data.type'],
    ['attributes not an object', { data: { type: 'products', attributes: [1] } }, 'data.attributes'],
  ])('%s → 400 naming %s', (_what, body, parameter) => {
    const e = thrown(() => parseEnvelope(body, 'products'));
    expect(e.status).toBe(400);
    expect(e.opts.parameter).toBe(parameter);
  });

  test('a plain object of the attributes is taken too; its id and type are dropped unless they are attributes', () => {
    expect(parseEnvelope({ name: 'x', type: 'products', id: 'p1' }, 'products')).toEqual({ name: 'x' });
    expect(parseEnvelope({ content: 'c', type: 'preference' }, 'agent_context', { attributes: new Set(['content', 'type']) })).toEqual({ content: 'c', type: 'preference' });
  });

  test('where the document names no request type (anyType), any data.type is taken, and none', () => {
    expect(parseEnvelope({ data: { type: 'render_requests', attributes: { placeholders: {} } } }, 'rendered_prompts', { anyType: true })).toEqual({ placeholders: {} });
    expect(parseEnvelope({ data: { attributes: { placeholders: {} } } }, 'rendered_prompts', { anyType: true })).toEqual({ placeholders: {} });
    expect(thrown(() => parseEnvelope({ data: { type: 5 } }, 'rendered_prompts', { anyType: true }))).toMatchObject({ code: 'BAD_REQUEST', opts: { parameter: 'data.type' } });
  });

  test('a different data.type → 409 INVALID_RESOURCE_TYPE', () => {
    const e = thrown(() => parseEnvelope({ data: { type: 'product', attributes: {} } }, 'products'));
    expect(e.code).toBe('INVALID_RESOURCE_TYPE');
    expect(e.status).toBe(409);
    expect(e.opts.parameter).toBe('data.type');
  });

  test('resource() moves id out of the attributes and can repeat it as unique_id', () => {
    expect(resource('accounts', { id: 'acc_1', urlId: 'acme', capabilities: { canExportData: true } }, { uniqueId: true })).toEqual({
      id: 'acc_1',
      type: 'accounts',
      attributes: { unique_id: 'acc_1', url_id: 'acme', capabilities: { can_export_data: true } },
    });
    expect(resource('identity', { id: 'idn_1', userUniqueId: 'u1' })).toEqual({ id: 'idn_1', type: 'identity', attributes: { user_unique_id: 'u1' } });
  });
});

describe('request relationships', () => {
  const body = (relationships: unknown) => ({ data: { type: 'variants', attributes: { name: 'x' }, relationships } });
  test('to-many fill <singular>_ids, to-one <name>_id (null clears), links-only ones (as answered) nothing', () => {
    expect(parseEnvelope(body({ categories: { data: [{ type: 'categories', id: 'c1' }] } }), 'variants')).toEqual({ name: 'x', category_ids: ['c1'] });
    expect(parseEnvelope(body({ product: { data: { type: 'products', id: 'p1' }, links: { related: '/v1/products/p1' } } }), 'variants')).toEqual({ name: 'x', product_id: 'p1' });
    expect(parseEnvelope(body({ product: { data: null } }), 'variants')).toEqual({ name: 'x', product_id: null });
    expect(parseEnvelope(body({ index: { links: { related: '/search/v1/indexes/m' } } }), 'variants')).toEqual({ name: 'x' });
  });
  test('malformed relationships name their place', () => {
    expect(thrown(() => parseEnvelope(body({ product: { data: 'p1' } }), 'variants'))).toMatchObject({ code: 'BAD_REQUEST', opts: { parameter: 'data.relationships.product.data' } });
    expect(thrown(() => parseEnvelope(body({ product: { data: { id: 'p1' } } }), 'variants'))).toMatchObject({ code: 'BAD_REQUEST', opts: { parameter: 'data.relationships.product.data' } });
    expect(thrown(() => parseEnvelope(body({ categories: { data: [{ type: 'tags', id: 't' }] } }), 'variants'))).toMatchObject({ code: 'INVALID_RESOURCE_TYPE' });
    expect(thrown(() => parseEnvelope(body({ product: 'p1' }), 'variants'))).toMatchObject({ code: 'BAD_REQUEST' });
  });
});

describe('rest-bridge compiled object shapes (snake-shapes.ts)', () => {
  /** the generic conversion, key by key, as the compiled one must answer */
  const byKeys = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) return v.map(byKeys);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== '__typename') out[restName(k)] = byKeys(x);
    return out;
  };

  test('objects of one shape convert alike, the compiled shape reused, with or without a prototype', () => {
    const make = (i: number, proto: boolean) => {
      const o: Record<string, unknown> = proto ? {} : Object.create(null);
      Object.assign(o, { id: `p${i}`, __typename: 'Product', shortName: `n${i}`, price: { amount: i, compareAt: null }, tags: [{ tagName: 't' }], weight: i % 2 ? null : { unitName: 'kg' } });
      return o;
    };
    for (let i = 0; i < 50; i++) {
      for (const proto of [true, false]) {
        const o = make(i, proto);
        expect(toSnakeKeys(o)).toEqual(byKeys(o));
        const r = resource('products', o);
        expect(r.id).toBe(`p${i}`);
        expect(r.attributes).toEqual({ short_name: `n${i}`, price: { amount: i, compare_at: null }, tags: [{ tag_name: 't' }], weight: i % 2 ? null : { unit_name: 'kg' } });
      }
    }
  });

  test('a shape with the same first and last keys but other keys between is another shape', () => {
    const a = { id: '1', fooBar: 1, zed: 2 };
    const b = { id: '1', bazQux: 1, zed: 2 };
    expect(toSnakeKeys(a)).toEqual({ id: '1', foo_bar: 1, zed: 2 });
    expect(toSnakeKeys(b)).toEqual({ id: '1', baz_qux: 1, zed: 2 });
    expect(toSnakeKeys({ id: '1', zed: 2 })).toEqual({ id: '1', zed: 2 });
  });

  test('omitted keys are left out per shape; keys that are not GraphQL names take the generic path', () => {
    const omit = new Set(['variants']);
    expect(resource('products', { id: 'p', variants: [], name: 'x' }, { omit }).attributes).toEqual({ name: 'x' });
    expect(resource('products', { id: 'p', variants: [], name: 'x' }).attributes).toEqual({ variants: [], name: 'x' });
    // data-like keys (not GraphQL names) are converted by the generic loop, never compiled into code
    const odd = JSON.parse('{"a-b": 1, "x\\"y": 2, "__proto__": {"polluted": true}, "okKey": 3}') as Record<string, unknown>;
    const out = toSnakeKeys(odd) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out['a-b']).toBe(1);
    expect(out['x"y']).toBe(2);
    expect(out.ok_key).toBe(3);
    expect(Object.keys(out)).toEqual(['a-b', 'x"y', '__proto__', 'ok_key']);
    expect(JSON.stringify(out)).toBe('{"a-b":1,"x\\"y":2,"__proto__":{"polluted":true},"ok_key":3}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
