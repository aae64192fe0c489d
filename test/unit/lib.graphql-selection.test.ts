// selectedFields (lib/graphql-selection.ts): what a query selects below the resolved field, through
// fragments and inline fragments, as @include/@skip leave it.
import { buildSchema, execute, parse, type GraphQLResolveInfo } from 'graphql';
import { selectedFields } from '../../lib/graphql-selection.js';

const schema = buildSchema(`
  type Variant { id: ID! price: Int }
  type Item { id: ID! name: String variants: [Variant!] images: [String!] categories: [String!] }
  type Page { items: [Item!]! total: Int! }
  type Query { page: Page! }
`);

function seen(query: string, variableValues: Record<string, unknown>, path: string[]): Set<string> {
  let out = new Set<string>();
  execute({
    schema,
    document: parse(query),
    variableValues,
    rootValue: {
      page: (_a: unknown, _c: unknown, info: GraphQLResolveInfo) => {
        out = selectedFields(info, path);
        return { items: [], total: 0 };
      },
    },
  });
  return out;
}

const QUERY = `
  query($v: Boolean!, $noImages: Boolean!) {
    page {
      items {
        ...Fields
        variants @include(if: $v) { ...VariantFields }
        images @skip(if: $noImages)
        ... on Item { categories }
      }
      total
    }
  }
  fragment Fields on Item { id name }
  fragment VariantFields on Variant { id price }
`;

describe('selectedFields', () => {
  it('reads through fragment spreads and inline fragments, honouring @include and @skip', () => {
    expect(seen(QUERY, { v: true, noImages: false }, ['items'])).toEqual(new Set(['id', 'name', 'variants', 'images', 'categories']));
    expect(seen(QUERY, { v: false, noImages: true }, ['items'])).toEqual(new Set(['id', 'name', 'categories']));
  });

  it('follows a path further down, and answers nothing below an excluded field', () => {
    expect(seen(QUERY, { v: true, noImages: false }, ['items', 'variants'])).toEqual(new Set(['id', 'price']));
    expect(seen(QUERY, { v: false, noImages: false }, ['items', 'variants'])).toEqual(new Set());
    expect(seen(QUERY, { v: true, noImages: false }, [])).toEqual(new Set(['items', 'total']));
  });
});
