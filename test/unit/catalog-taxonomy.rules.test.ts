// Pure pieces of categories, collections and pricing: slugs, the bridge's data.* bodies and tree
// nesting, include lists.
import { parseEnvelope } from '../../rest-bridge/jsonapi.js';
import { listParam, parseQuery } from '../../rest-bridge/query.js';
import { nestTree } from '../../rest-bridge/routes/catalog-categories.routes.js';
import { checkSlug, slugify } from '../../subgraphs/catalog/request.js';

function thrown(fn: () => unknown): any {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('did not throw');
}

describe('slugs', () => {
  test.each([
    ['Café Tables!', 'cafe-tables'],
    ['  Summer   Sale 2026 ', 'summer-sale-2026'],
    ['***', 'item'],
    ['Ünïcödé', 'unicode'],
  ])('slugify(%j) = %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
    expect(checkSlug(slug)).toBe(slug);
  });

  test.each(['Upper', 'two--hyphens', '-lead', 'trail-', 'sp ace', '', 'x'.repeat(201)])('checkSlug refuses %j naming slug', (bad) => {
    expect(thrown(() => checkSlug(bad))).toMatchObject({ code: 'VALIDATION_FAILED', opts: { parameter: 'slug' } });
  });
});

describe('bodies with their fields under data (inData)', () => {
  test('fields right under data, type optional; data.attributes read too', () => {
    expect(parseEnvelope({ data: { product_ids: ['a'] } }, 'category_products', { inData: true })).toEqual({ product_ids: ['a'] });
    expect(parseEnvelope({ data: { type: 'category_products', product_ids: ['a'] } }, 'category_products', { inData: true })).toEqual({ product_ids: ['a'] });
    expect(parseEnvelope({ data: { type: 'category_products', attributes: { product_ids: ['b'] } } }, 'category_products', { inData: true })).toEqual({ product_ids: ['b'] });
  });

  test('a wrong type is 409 naming data.type; no data is 400', () => {
    expect(thrown(() => parseEnvelope({ data: { type: 'x', product_ids: [] } }, 'category_products', { inData: true }))).toMatchObject({ code: 'INVALID_RESOURCE_TYPE', opts: { parameter: 'data.type' } });
    expect(thrown(() => parseEnvelope({ product_ids: [] }, 'category_products', { inData: true }))).toMatchObject({ code: 'BAD_REQUEST', opts: { parameter: 'data' } });
    expect(thrown(() => parseEnvelope({ data: { attributes: 5 } }, 'category_products', { inData: true }))).toMatchObject({ code: 'BAD_REQUEST', opts: { parameter: 'data.attributes' } });
  });
});

describe('include lists', () => {
  test('distinct allowed names; unknown → 400 naming the parameter', () => {
    expect([...listParam(parseQuery('include=children,product_count,children'), 'include', ['children', 'products', 'product_count'])]).toEqual(['children', 'product_count']);
    expect(listParam(parseQuery(''), 'include', ['children']).size).toBe(0);
    expect(thrown(() => listParam(parseQuery('include=parent'), 'include', ['children']))).toMatchObject({ code: 'BAD_REQUEST', opts: { parameter: 'include' } });
  });
});

describe('nestTree', () => {
  test('a depth-first list with depths nests into roots with children at every level', () => {
    const n = (id: string, depth: number) => ({ id, name: id, depth });
    const roots = nestTree([n('a', 0), n('a1', 1), n('a1x', 2), n('a2', 1), n('b', 0), n('b1', 1)]);
    const shape = (rs: any[]): any[] => rs.map((r) => [r.id, shape(r.attributes.children)]);
    expect(shape(roots)).toEqual([
      ['a', [['a1', [['a1x', []]]], ['a2', []]]],
      ['b', [['b1', []]]],
    ]);
    expect(roots[0].attributes.depth).toBeUndefined();
  });
});
