import { buildSchema, parse, print } from 'graphql';
import { expandAllFields } from '../../rest-bridge/fragments.js';
import { loadOperations } from '../../rest-bridge/operations.js';

const schema = buildSchema(
  `
  scalar JSONObject
  type Money { amount: Int!, currency: String!, formatted(locale: String): String! }
  type Owner { id: ID!, name: String! }
  type Widget {
    id: ID!
    name: String!
    price: Money
    tags: [String!]!
    metadata: JSONObject
    owner: Owner!
    related: [Widget!]!
    score(weights: String!): Float
    secret: String @inaccessible
    remoteCount: Int! @join__field(graph: AI)
    homeOnly: Int @join__field(graph: CATALOG)
  }
  type Query { widget: Widget, widgets: [Widget!]! }
  `,
  { assumeValidSDL: true },
);

const expand = (text: string) => print(expandAllFields(parse(text), schema, 'products', 'test.graphql')).replace(/\s+/g, ' ').trim();

describe('@allFields: selections derived from the schema', () => {
  test('scalars, lists of scalars, JSON and value objects (expanded); no relations, required args, @inaccessible or other subgraphs', () => {
    expect(expand('fragment W on Widget @allFields { id }')).toBe(
      'fragment W on Widget { id name price { amount currency formatted } tags metadata homeOnly }',
    );
  });

  test('written selections are kept as written, relations selected explicitly, except removes fields', () => {
    expect(expand('fragment W on Widget @allFields(except: ["tags", "price"]) { id owner { name } }')).toBe('fragment W on Widget { id name metadata owner { name } homeOnly }');
  });

  test('on a field of an operation', () => {
    expect(expand('query Q { widget @allFields { id } }')).toBe('query Q { widget { id name price { amount currency formatted } tags metadata homeOnly } }');
  });

  test('misuse stops loading, naming the file and fragment', () => {
    expect(() => expand('fragment W on Widget @allFields(except: ["nope"]) { id }')).toThrow(/test\.graphql: fragment W: except names nope/);
    expect(() => expand('query Q { widget { name @allFields } }')).toThrow(/field name: @allFields needs an object type/);
  });

  test('the bridge operations carry no @allFields once loaded, and ProductFields has the Product fields but relations, excepted ones and fields with required arguments', () => {
    const ops = loadOperations();
    for (const op of ops.values()) expect(op.source).not.toContain('@allFields');
    const source = ops.get('GetProduct')!.source.replace(/\s+/g, ' ');
    const fragment = /fragment ProductFields on Product \{ (.*?) \} fragment /.exec(source)?.[1] ?? '';
    for (const f of ['id', 'name', 'sku', 'description']) expect(fragment.split(/[ {}]+/)).toContain(f); // order follows the composed schema
    expect(fragment).toContain('price { amount currency compareAt formatted compareAtFormatted }');
    expect(fragment).toContain('bundleItems { productId quantity required }');
    for (const absent of ['app', 'related', 'deletedAt', 'effectivePrice', 'variants', 'categories']) expect(fragment.split(/[ {}]+/)).not.toContain(absent);
  });
});
