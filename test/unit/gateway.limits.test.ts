// gateway/limits.ts: depth and cost of an operation, measured before execution. Cost model (IBM
// GraphQL cost spec, docs/cost.md): a field costs its @cost, else its type's @cost, else 1 for an
// object and 0 for a scalar; a mutation's root field 10; a list multiplies by its @listSize size
// (slicing argument given, else its default, else assumedSize, else a parent's sizedFields, else 20).
import { buildSchema, parse } from 'graphql';
import { DEFAULT_LIST_SIZE, MAX_INTROSPECTIONS, MUTATION_WEIGHT, OperationMeasures, limitError, measureOperation } from '../../gateway/limits.js';
import { costWeights } from '../../gateway/cost/weights.js';

const sdl = /* GraphQL */ `
  directive @cost(weight: Int!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR
  directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION
  interface Node { id: ID! }
  type Price @cost(weight: 0) { amount: Int, currency: String }
  type Variant { id: ID!, sku: String, prices: [Price!]! }
  type Review { id: ID!, body: String, author: User }
  type User implements Node {
    id: ID!
    name: String
    reviews(pageSize: Int = 10): [Review!] @listSize(slicingArguments: ["pageSize"], requireOneSlicingArgument: false)
  }
  type Option { name: String }
  type Moderation { flagged: Boolean }
  type Product implements Node {
    id: ID!
    name: String
    tags: [String!]!
    variants(first: Int = 100): [Variant!]! @listSize(slicingArguments: ["first"], requireOneSlicingArgument: false)
    reviews(limit: Int): [Review] @listSize(slicingArguments: ["limit"], requireOneSlicingArgument: false)
    related(perPage: Int, last: Int, offset: Int): [Product!]! @listSize(slicingArguments: ["perPage", "last"], requireOneSlicingArgument: false)
    similar: [Product!]!
    owner: User
    options: [Option!]! @listSize(assumedSize: 5)
    moderation: Moderation @cost(weight: 20)
  }
  type ProductPage { items: [Product!]!, total: Int! }
  type Query {
    product(id: ID!): Product
    products(first: Int, after: String): [Product!]! @listSize(slicingArguments: ["first"], requireOneSlicingArgument: false)
    productPage(page: Int = 1, pageSize: Int = 20): ProductPage! @listSize(slicingArguments: ["pageSize"], sizedFields: ["items"], requireOneSlicingArgument: false)
    search(q: String!, boost: Int @cost(weight: 3)): [Product!]! @cost(weight: 10) @listSize(assumedSize: 10)
    node(id: ID!): Node
    me: User
  }
  type Mutation { createProduct(name: String!): Product, classify(text: String!): Moderation @cost(weight: 50) }
  type Subscription { lowStock: [Product!]! }
`;
const schema = buildSchema(sdl);
const weights = costWeights(parse(sdl));

const measure = (query: string, variables?: Record<string, unknown>, operationName?: string) => measureOperation(schema, parse(query), operationName, variables, weights);

describe('costWeights: the directives of an SDL', () => {
  test('fields, types and arguments', () => {
    expect(weights.types.get('Price')).toBe(0);
    expect(weights.fields.get('Query.search')).toEqual({ weight: 10, argWeights: new Map([['boost', 3]]), listSize: { assumedSize: 10 } });
    expect(weights.fields.get('Query.productPage')).toEqual({ listSize: { slicingArguments: ['pageSize'], sizedFields: ['items'] } });
    expect(weights.fields.has('Product.name')).toBe(false);
  });
});

describe('measureOperation', () => {
  test('the default list size is 20; a mutation root field 10', () => {
    expect(DEFAULT_LIST_SIZE).toBe(20);
    expect(MUTATION_WEIGHT).toBe(10);
  });

  test('objects cost 1, scalars and __typename 0', () => {
    expect(measure('{ me { id } }')).toEqual({ depth: 2, cost: 1 });
    expect(measure('{ __typename }')).toEqual({ depth: 1, cost: 0 });
    expect(measure('{ product(id: "p") { id name } }')).toEqual({ depth: 2, cost: 1 });
  });

  test('a scalar list costs nothing', () => {
    expect(measure('{ product(id: "p") { tags } }')).toEqual({ depth: 2, cost: 1 });
  });

  test('a list without @listSize counts 20 items', () => {
    // product 1 + similar 20 × 1
    expect(measure('{ product(id: "p") { similar { id } } }')).toEqual({ depth: 3, cost: 21 });
  });

  test('a slicing argument: given, else its default, else 20', () => {
    expect(measure('{ products(first: 5) { id name } }')).toEqual({ depth: 2, cost: 5 });
    expect(measure('{ products { id } }').cost).toBe(20);
    // variants(first: Int = 100)
    expect(measure('{ product(id: "p") { variants { sku } } }').cost).toBe(1 + 100);
    expect(measure('{ product(id: "p") { variants(first: 3) { sku } } }').cost).toBe(1 + 3);
    // several slicing arguments: the largest given
    expect(measure('{ product(id: "p") { related(perPage: 4, last: 6) { id } } }').cost).toBe(1 + 6);
    // offset is not a slicing argument
    expect(measure('{ product(id: "p") { related(offset: 3) { id } } }').cost).toBe(1 + 20);
  });

  test('assumedSize when the list has no slicing argument', () => {
    expect(measure('{ product(id: "p") { options { name } } }').cost).toBe(1 + 5);
  });

  test('sizedFields: a page object sizes its items from its own slicing argument', () => {
    expect(measure('{ productPage(pageSize: 50) { total items { id } } }')).toEqual({ depth: 3, cost: 1 + 50 });
    expect(measure('{ productPage { items { id } } }').cost).toBe(1 + 20);
    // the same fragment under two page sizes is measured for each
    const q = '{ a: productPage(pageSize: 5) { ...PP } b: productPage(pageSize: 7) { ...PP } } fragment PP on ProductPage { items { id } }';
    expect(measure(q).cost).toBe(1 + 5 + (1 + 7));
  });

  test('@cost on a field, a type and an argument', () => {
    expect(measure('{ product(id: "p") { moderation { flagged } } }').cost).toBe(1 + 20);
    // a list field's weight is paid per item (as Apollo's demand control): 10 items × 10
    expect(measure('{ search(q: "x") { id } }').cost).toBe(100);
    expect(measure('{ search(q: "x", boost: 2) { id } }').cost).toBe(103);
    // Price @cost(weight: 0): the prices list costs nothing
    expect(measure('{ products(first: 5) { id variants(first: 3) { sku prices { amount } } } }')).toEqual({ depth: 4, cost: 5 * (1 + 3 * 1) });
  });

  test('nested default-sized lists grow as 20^n', () => {
    // related(id): 20 × 1 = 20; related: 20 × (1 + 20) = 420; products: 20 × (1 + 420) = 8420
    expect(measure('{ products { related { related { id } } } }')).toEqual({ depth: 4, cost: 8420 });
  });

  test('a variable slicing argument takes its value from the variables; zero, negative or non-numeric counts as absent', () => {
    const q = 'query Q($n: Int) { products(first: $n) { id } }';
    expect(measure(q, { n: 7 })).toEqual({ depth: 2, cost: 7 });
    expect(measure(q, { n: 100 })).toEqual({ depth: 2, cost: 100 });
    expect(measure(q, {})).toEqual({ depth: 2, cost: 20 });
    expect(measure(q)).toEqual({ depth: 2, cost: 20 });
    expect(measure(q, { n: 0 }).cost).toBe(20);
    expect(measure(q, { n: -5 }).cost).toBe(20);
    expect(measure(q, { n: 'many' }).cost).toBe(20);
    expect(measure('{ products(first: 0) { id } }').cost).toBe(20);
  });

  test('selections left out by @skip / @include cost nothing (literal or variable conditions)', () => {
    const q = 'query Q($on: Boolean!) { product(id: "p") { id variants(first: 10) @include(if: $on) { sku } related @skip(if: $on) { id } } }';
    expect(measure(q, { on: false }).cost).toBe(1 + 20);
    expect(measure(q, { on: true }).cost).toBe(1 + 10);
    expect(measure('{ product(id: "p") { id ... @include(if: false) { name } ...F @skip(if: true) } } fragment F on Product { owner { id } }').cost).toBe(1);
    // an unknown variable leaves the selection in (counted)
    expect(measure('query Q($on: Boolean) { me @include(if: $on) { id } }').cost).toBe(1);
  });

  test('a named fragment counts as if inlined, once per use', () => {
    const q = `
      query { a: product(id: "1") { ...P } b: product(id: "2") { ...P } }
      fragment P on Product { id variants(first: 2) { sku } }
    `;
    // each product: 1 + variants 2 × 1
    expect(measure(q)).toEqual({ depth: 3, cost: 6, aliases: 2 });
  });

  test('nested fragments', () => {
    const q = `
      { products(first: 2) { ...P } }
      fragment P on Product { id owner { ...U } }
      fragment U on User { id name }
    `;
    expect(measure(q)).toEqual({ depth: 3, cost: 2 * (1 + 1) });
  });

  test('inline fragments: a type condition finds that type’s fields; none keeps the parent type', () => {
    expect(measure('{ node(id: "p") { id ... on Product { variants(first: 2) { sku } } } }')).toEqual({ depth: 3, cost: 1 + 2 });
    expect(measure('{ node(id: "p") { ... on Product { variants { sku } } } }')).toEqual({ depth: 3, cost: 1 + 100 });
    expect(measure('{ products(first: 2) { ... { id name } } }')).toEqual({ depth: 2, cost: 2 });
    expect(measure('{ product(id: "p") { ... @include(if: true) { variants { sku } } } }')).toEqual({ depth: 3, cost: 1 + 100 });
  });

  test('a fragment spread inside an inline fragment on an interface', () => {
    const q = `
      { node(id: "u") { ... on User { ...R } } }
      fragment R on User { reviews(pageSize: 2) { author { name } } }
    `;
    // reviews: 2 × (1 + author 1) = 4; node 1
    expect(measure(q)).toEqual({ depth: 4, cost: 5 });
  });

  test('a fragment cycle terminates', () => {
    const m = measure('{ product(id: "p") { ...A } } fragment A on Product { related { ...A } }');
    expect(m).toEqual({ depth: 3, cost: 1 + 20 });
  });

  test('an unknown fragment is ignored; an unknown field with a selection counts as an object', () => {
    expect(measure('{ product(id: "p") { id ...Missing } }')).toEqual({ depth: 2, cost: 1 });
    expect(measure('{ unknown { a b } }')).toEqual({ depth: 2, cost: 1 });
  });

  test('the operation is picked by name; an unknown name measures nothing', () => {
    const doc = 'query Small { me { id } } query Big { products { id } }';
    expect(measure(doc, {}, 'Small')).toEqual({ depth: 2, cost: 1 });
    expect(measure(doc, {}, 'Big')).toEqual({ depth: 2, cost: 20 });
    expect(measure(doc, {}, 'Nope')).toEqual({ depth: 0, cost: 0 });
    expect(measure(doc)).toEqual({ depth: 2, cost: 1 });
  });

  test('mutation and subscription roots', () => {
    expect(measure('mutation { createProduct(name: "x") { id variants(first: 2) { sku } } }')).toEqual({ depth: 3, cost: 10 + 2 });
    expect(measure('mutation { classify(text: "x") { flagged } }').cost).toBe(50);
    expect(measure('subscription { lowStock { id } }')).toEqual({ depth: 2, cost: 20 });
  });

  test('deep nesting through object fields', () => {
    const m = measure('{ me { reviews(pageSize: 1) { author { reviews(pageSize: 1) { author { name } } } } } }');
    expect(m.depth).toBe(6);
    // author 1; reviews 1 × (1 + 1) = 2; author 1 + 2 = 3; reviews 1 × (1 + 3) = 4; me 1 + 4 = 5
    expect(m.cost).toBe(5);
  });

  test('nested introspection selections are measured against their own depth budget', () => {
    const m = measure('{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }');
    expect(m.introspectionDepth).toBe(8);
    expect(m.cost).toBeGreaterThan(0);
  });

  test('without weights every list counts 20 and every object 1', () => {
    expect(measureOperation(schema, parse('{ product(id: "p") { variants(first: 3) { sku } } }'), undefined).cost).toBe(1 + 20);
  });
});

describe('OperationMeasures', () => {
  test('a measure is kept per document and the values of the variables it read', () => {
    const measures = new OperationMeasures(weights);
    const fixed = parse('{ products(first: 5) { id } }');
    const a = measures.measure(schema, fixed, undefined);
    expect(measures.measure(schema, fixed, undefined)).toBe(a);
    const variable = parse('query Q($n: Int, $on: Boolean!, $q: String) { products(first: $n, after: $q) { id variants(first: 2) @include(if: $on) { sku } } }');
    const seven = measures.measure(schema, variable, undefined, { n: 7, on: false, q: 'a' });
    expect(seven.cost).toBe(7);
    // a variable it did not read ($q) does not matter
    expect(measures.measure(schema, variable, undefined, { n: 7, on: false, q: 'b' })).toBe(seven);
    expect(measures.measure(schema, variable, undefined, { n: 9, on: false }).cost).toBe(9);
    expect(measures.measure(schema, variable, undefined, { n: 7, on: true }).cost).toBe(7 * (1 + 2));
    expect(measures.measure(schema, variable, undefined, { n: 7, on: false, q: 'c' })).toBe(seven);
  });
});

describe('limitError', () => {
  test('within both limits: no error, limits inclusive', () => {
    expect(limitError({ depth: 12, cost: 5000 }, 12, 5000)).toBeUndefined();
    expect(limitError({ depth: 1, cost: 1 }, 12, 5000)).toBeUndefined();
  });

  test('too deep → QUERY_TOO_DEEP 400', () => {
    const e = limitError({ depth: 13, cost: 10 }, 12, 5000);
    expect(e?.message).toBe('Query depth 13 exceeds the limit of 12');
    expect(e?.extensions).toEqual({ code: 'QUERY_TOO_DEEP', status: 400, http: { status: 400 } });
  });

  test('too costly → QUERY_TOO_COMPLEX 400', () => {
    const e = limitError({ depth: 2, cost: 5001 }, 12, 5000);
    expect(e?.message).toBe('Query cost 5001 exceeds the limit of 5000');
    expect(e?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', status: 400, http: { status: 400 } });
  });

  test('both exceeded → depth is reported', () => {
    expect(limitError({ depth: 20, cost: 1e6 }, 12, 5000)?.extensions.code).toBe('QUERY_TOO_DEEP');
  });

  test('measured operations against the default limits', () => {
    const nested = measure('{ products { related { related { id } } } }');
    expect(limitError(nested, 12, 5000)?.extensions.code).toBe('QUERY_TOO_COMPLEX');
    const paged = measure('{ products(first: 10) { related(perPage: 10) { related(perPage: 10) { id } } } }');
    expect(paged.cost).toBe(10 * (1 + 10 * (1 + 10)));
    expect(limitError(paged, 12, 5000)).toBeUndefined();
  });
});

describe('introspection budget', () => {
  test('the standard introspection query passes; a deeper one is refused', async () => {
    const { getIntrospectionQuery, buildSchema: build, parse: p } = await import('graphql');
    const schema = build('type Query { a: Int }');
    const std = measureOperation(schema, p(getIntrospectionQuery()), undefined);
    expect(limitError(std, 12, 5000)).toBeUndefined();
    const deep = `{ __schema { types { ${'fields { type { '.repeat(10)}name${' } }'.repeat(10)} } } }`;
    expect(limitError(measureOperation(schema, p(deep), undefined), 12, 5000)?.extensions.code).toBe('QUERY_TOO_DEEP');
  });
});

describe('introspection count', () => {
  test(`at most ${MAX_INTROSPECTIONS} __schema / __type fields per operation, fragments expanded`, () => {
    const three = measure('{ a: __schema { queryType { name } } b: __type(name: "Product") { name } c: __type(name: "User") { name } }');
    expect(three.introspections).toBe(3);
    expect(limitError(three, 12, 5000)).toBeUndefined();
    const viaFragments = measure('{ ...A ...A } fragment A on Query { ...B ...B } fragment B on Query { __schema { queryType { name } } }');
    expect(viaFragments.introspections).toBe(4);
    expect(limitError(viaFragments, 12, 5000)?.extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(measure('{ __typename me { id } }').introspections).toBeUndefined();
  });
});
