// Pure pieces of categories, collections and pricing: slugs, the bridge's data.* bodies and tree
// nesting, include lists.
import { parseEnvelope } from '../../rest-bridge/jsonapi.js';
import { listParam, parseQuery } from '../../rest-bridge/query.js';
import { nestTree } from '../../rest-bridge/routes/catalog-categories.routes.js';
import { checkSlug, slugify } from '../../subgraphs/catalog/request.js';
import { checkTiers, pickPrice } from '../../subgraphs/catalog/pricing/pricing.rules.js';
import { parseRules, rulesToSql } from '../../subgraphs/catalog/collections/collection.rules.js';

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

  test('the document names no type for these bodies: any data.type is taken; a plain object of the fields too; data not an object is 400', () => {
    expect(parseEnvelope({ data: { type: 'x', product_ids: ['a'] } }, 'category_products', { inData: true })).toEqual({ product_ids: ['a'] });
    expect(parseEnvelope({ product_ids: ['c'] }, 'category_products', { inData: true })).toEqual({ product_ids: ['c'] });
    expect(thrown(() => parseEnvelope({ data: [] }, 'category_products', { inData: true }))).toMatchObject({ code: 'BAD_REQUEST', opts: { parameter: 'data' } });
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

describe('pricing: pickPrice precedence', () => {
  const c = (amount: number, id = `x${amount}`, compareAt: number | null = null) => ({ id, amount, compareAt });
  test('customer > customer_group > scheduled > tier > base, first present wins', () => {
    const all = { customer: c(70), customer_group: c(72), scheduled: c(90, 's', 110), tier: c(100), base: c(110) };
    expect(pickPrice(all)).toEqual({ source: 'customer', sourceId: 'x70', amount: 70, compareAt: 110 });
    expect(pickPrice({ ...all, customer: null })).toMatchObject({ source: 'customer_group', amount: 72 });
    expect(pickPrice({ ...all, customer: null, customer_group: null })).toEqual({ source: 'scheduled', sourceId: 's', amount: 90, compareAt: 110 });
    expect(pickPrice({ tier: c(100), base: c(110) })).toMatchObject({ source: 'tier', amount: 100, compareAt: 110 });
    expect(pickPrice({ base: c(110, 'ignored', 150) })).toEqual({ source: 'base', sourceId: null, amount: 110, compareAt: 150 });
    expect(pickPrice({})).toBeNull();
  });

  test('compare_at: never the regular price when it is not above the price', () => {
    expect(pickPrice({ tier: c(120), base: c(110) })).toMatchObject({ compareAt: null });
    expect(pickPrice({ customer: c(50) })).toMatchObject({ compareAt: null });
  });
});

describe('pricing: tiers', () => {
  const tier = (minQuantity: number, maxQuantity: number | null, currency = 'USD') => ({ minQuantity, maxQuantity, currency, amount: 100 });
  test('sorted or not, adjacent tiers pass; gaps pass; currencies are separate', () => {
    expect(checkTiers([tier(10, 19), tier(1, 9), tier(20, null)])).toHaveLength(3);
    expect(checkTiers([tier(1, 4), tier(10, null)])).toHaveLength(2);
    expect(checkTiers([tier(1, null), tier(1, null, 'EUR')])).toHaveLength(2);
  });

  test.each([
    [[tier(1, 10), tier(10, 20)], 'tiers[1].minQuantity'],
    [[tier(5, 20), tier(1, 5)], 'tiers[0].minQuantity'],
    [[tier(1, null), tier(100, 200)], 'tiers[1].minQuantity'],
    [[tier(1, null), tier(1, null)], 'tiers[1].minQuantity'],
  ])('overlaps are INVALID_PRICE naming the later tier: %j', (tiers, parameter) => {
    expect(thrown(() => checkTiers(tiers))).toMatchObject({ code: 'INVALID_PRICE', opts: { parameter } });
  });
});

describe('collections: rules to SQL', () => {
  test('all / any join the conditions; values are parameters, never SQL text', () => {
    const rules = parseRules({
      match: 'any',
      conditions: [
        { field: 'price', operator: 'greater_than', value: 1000 },
        { field: 'name', operator: 'contains', value: "50%_o'ff" },
        { field: 'attributes.brand', operator: 'in', value: ['Acme', 'Bolt'] },
      ],
    });
    const sql = rulesToSql(rules);
    expect(sql.sql).toBe("(p.price_amount > ?::bigint or p.name ilike ? or lower((p.attributes ->> ?)) in (select jsonb_array_elements_text(?::jsonb)))");
    expect(sql.params).toEqual([1000, "%50\\%\\_o'ff%", 'brand', '["acme","bolt"]']);
    expect(rulesToSql(parseRules({ conditions: [{ field: 'status', operator: 'equals', value: 'active' }] })).sql).toBe('(lower(p.status) = lower(?))');
  });

  test.each([
    [{ match: 'some', conditions: [] }, 'rules.match'],
    [{ match: 'all', conditions: [] }, 'rules.conditions'],
    [{ conditions: [{ field: 'colour', operator: 'equals', value: 'x' }] }, 'rules.conditions[0].field'],
    [{ conditions: [{ field: 'name', operator: 'like', value: 'x' }] }, 'rules.conditions[0].operator'],
    [{ conditions: [{ field: 'name', operator: 'greater_than', value: 'x' }] }, 'rules.conditions[0].operator'],
    [{ conditions: [{ field: 'price', operator: 'equals', value: '10' }] }, 'rules.conditions[0].value'],
    [{ conditions: [{ field: 'price', operator: 'in', value: [] }] }, 'rules.conditions[0].value'],
    [{ conditions: [{ field: 'created_at', operator: 'greater_than', value: 'soon' }] }, 'rules.conditions[0].value'],
    [{ conditions: [{ field: 'attributes.a b', operator: 'equals', value: 'x' }] }, 'rules.conditions[0].field'],
  ])('%j → 422 naming %s', (raw, parameter) => {
    expect(thrown(() => parseRules(raw))).toMatchObject({ code: 'VALIDATION_FAILED', opts: { parameter } });
  });
});
