import { buildSchema } from 'graphql';
import { loadApiSchema } from '../../rest-bridge/api-schema.js';
import { deriveRoutes } from '../../rest-bridge/derive.js';
import { loadOperations, splitOperations, type Operation } from '../../rest-bridge/operations.js';
import { ROUTES } from '../../rest-bridge/routes/index.js';
import type { Route } from '../../rest-bridge/types.js';

const schema = loadApiSchema();
const derived = deriveRoutes(ROUTES, loadOperations(), schema);

function find(operation: string): Route {
  const r = ROUTES.find((x) => x.operation === operation);
  if (!r) throw new Error(`no route ${operation}`);
  return r;
}

const kinds = (operation: string) =>
  Object.fromEntries(Object.entries(derived.get(find(operation))!.body!.fields).map(([k, f]) => [k, `${f.graphql}:${f.spec.kind}${f.required ? '!' : ''}`]));

describe('REST bodies derived from the GraphQL schema', () => {
  test('input: the fields of the input object, snake_case, JSON scalars free-form, input objects structured', () => {
    expect(kinds('CreateProduct')).toEqual({
      name: 'name:scalar!',
      sku: 'sku:scalar!',
      description: 'description:scalar',
      short_description: 'shortDescription:scalar',
      status: 'status:scalar',
      type: 'type:scalar',
      price: 'price:object',
      cost: 'cost:object',
      inventory: 'inventory:object',
      weight: 'weight:object',
      dimensions: 'dimensions:object',
      attributes: 'attributes:json',
      seo: 'seo:object',
      metadata: 'metadata:json',
      bundle_items: 'bundleItems:list',
      bundle_pricing: 'bundlePricing:scalar',
      category_ids: 'categoryIds:list',
    });
    const price = derived.get(find('CreateProduct'))!.body!.fields.price.spec;
    expect(price.kind === 'object' && Object.keys(price.fields)).toEqual(['amount', 'currency', 'compare_at']);
  });

  test('args: each named variable is one attribute', () => {
    expect(kinds('UpdateIndexSynonyms')).toEqual({ synonyms: 'synonyms:json', one_way_synonyms: 'oneWaySynonyms:json' });
    expect(kinds('UpdateIndexStopWords')).toEqual({ stop_words: 'stopWords:list!' });
  });

  test('fieldsOf: the keys of a free-form argument are the fields of the named type; nested values stay free-form', () => {
    const k = kinds('UpdateIndexSettings');
    expect(k.searchable_attributes).toBe('searchableAttributes:list');
    expect(k.typo_tolerance).toBe('typoTolerance:json');
  });

  test('every body route derives; lists of input objects convert per item', () => {
    for (const r of ROUTES) if (r.body) expect(derived.get(r)!.body!.type).toBe(r.body.type);
    const queries = derived.get(find('MultiSearch'))!.body!.fields.queries.spec;
    expect(queries.kind === 'list' && queries.items.kind).toBe('object');
  });

  test('free-form response values come from JSON scalars in the selection, through fragments and pages', () => {
    expect(derived.get(find('ListProducts'))!.freeForm).toEqual({ products: { items: { attributes: true, metadata: true, variants: { options: true } } } });
    expect(derived.get(find('GetIndex'))!.freeForm).toEqual({ index: { settings: { synonyms: true, oneWaySynonyms: true, faceting: { sortFacetValuesBy: true } } } });
    expect(derived.get(find('RegisterIdentity'))!.freeForm).toEqual({});
  });

  describe('a row that does not fit its operation stops start-up, naming it', () => {
    const s = buildSchema(`
      scalar JSONObject
      input WidgetInput { name: String!, size: Int = 3, extra: JSONObject }
      type Widget { id: ID!, name: String! }
      type Query { w: Widget }
      type Mutation { make(input: WidgetInput!, note: String): Widget }
    `);
    const op = (text: string): Map<string, Operation> => new Map(splitOperations('ai', text).map((o) => [o.name, o]));
    const row = (body: Route['body']): Route => ({
      method: 'POST',
      path: '/w',
      service: 'ai',
      auth: 'none',
      operation: 'Make',
      summary: 'make',
      body,
      variables: () => ({}),
      result: () => ({ data: [] }),
      status: 201,
      responseType: 'widgets',
    });
    const ops = op('mutation Make($input: WidgetInput!, $note: String) { make(input: $input, note: $note) { id name } }');

    test('a default makes a non-null field optional', () => {
      const d = deriveRoutes([row({ type: 'widgets', input: 'input' })], ops, s);
      const fields = [...d.values()][0].body!.fields;
      expect(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.required]))).toEqual({ name: true, size: false, extra: false });
    });

    test.each([
      [{ type: 'widgets' }, /exactly one of input, args, fieldsOf/],
      [{ type: 'widgets', input: 'missing' }, /POST \/w \(Make\): the operation declares no \$missing/],
      [{ type: 'widgets', input: 'note' }, /\$note is not an input object/],
      [{ type: 'widgets', fieldsOf: 'Nope' }, /fieldsOf names Nope/],
      [{ type: 'widgets', args: ['note'], required: ['other'] }, /required names other/],
    ])('%j', (body, message) => {
      expect(() => deriveRoutes([row(body as Route['body'])], ops, s)).toThrow(message);
    });

    test('a scalar without a REST type', () => {
      const s2 = buildSchema('scalar Money type Query { a: Int } type Mutation { pay(amount: Money): Int }');
      expect(() => deriveRoutes([{ ...row({ type: 'p', args: ['amount'] }), operation: 'Pay' }], op('mutation Pay($amount: Money) { pay(amount: $amount) }'), s2)).toThrow(
        /scalar Money has no REST type/,
      );
    });
  });
});
