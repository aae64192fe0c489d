// What a free-form JSON value is known to be, for the OpenAPI document only. A `JSON` scalar in the
// schema says "any JSON" (the service checks the value and names the offending position, which a
// typed GraphQL argument could not do for a whole batch), so the REST reference would show these
// attributes untyped; this table, keyed by GraphQL schema coordinate, says what the service
// accepts. The bridge passes the values through unchanged either way. A coordinate the schema does
// not have fails test/unit/rest-bridge.openapi.test.ts.
import type { AttrSpec } from './types.js';

type Shape = Readonly<Record<string, unknown>>;

/** Search's filter: an expression string, or the array form (outer AND, inner arrays OR). */
const SEARCH_FILTER: Shape = {
  oneOf: [
    { type: 'string', examples: ['genre = horror AND year > 2000'] },
    { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }, examples: [['genre = horror', ['year > 2000', 'rating >= 4']]] },
  ],
};

export const JSON_SHAPES: Readonly<Record<string, Shape>> = {
  'Mutation.addIndexDocuments(documents:)': { type: 'object', additionalProperties: true, description: 'one document: its primary key and any fields' },
  'Mutation.deleteIndexDocuments(documentIds:)': { oneOf: [{ type: 'string' }, { type: 'integer' }], description: 'a primary key value' },
  'Mutation.deleteIndexDocumentsByFilter(filter:)': SEARCH_FILTER,
  'SearchInput.filter': SEARCH_FILTER,
  'MultiSearchQueryInput.filter': SEARCH_FILTER,
  'SearchTaskDetails.originalFilter': SEARCH_FILTER,
};

/** `spec` with the known shape of its free-form values (through lists) at `coordinate`, if the table has one. */
export function withJsonShape(spec: AttrSpec, coordinate: string): AttrSpec {
  const shape = JSON_SHAPES[coordinate];
  if (!shape) return spec;
  if (spec.kind === 'list') return { kind: 'list', items: withJsonShape(spec.items, coordinate) };
  return spec.kind === 'json' ? { kind: 'json', schema: shape } : spec;
}
