// THE naming rule between the two sides: REST attributes are snake_case, GraphQL fields and
// variables camelCase, and one converts to the other by rule. The spec names a few REST
// attributes otherwise; those, and only those, are listed in REST_NAME_EXCEPTIONS.

/**
 * GraphQL field name → REST attribute name, where the spec's name is not the snake_case of the
 * GraphQL one. Applies to request and response attributes and to error `parameter`s alike.
 */
export const REST_NAME_EXCEPTIONS: Readonly<Record<string, string>> = {};

const GRAPHQL_NAME_EXCEPTIONS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(REST_NAME_EXCEPTIONS).map(([g, r]) => [r, g]));

export function camelCase(s: string): string {
  return s.replace(/_+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function snakeCase(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** Names converted so far: every response converts the same few hundred field names again and again. */
const restNames = new Map<string, string>();
const REST_NAMES_CACHED = 10_000;

/** `compareAt` → `compare_at` (or the spec's name from REST_NAME_EXCEPTIONS). */
export function restName(graphqlName: string): string {
  let name = restNames.get(graphqlName);
  if (name === undefined) {
    name = Object.hasOwn(REST_NAME_EXCEPTIONS, graphqlName) ? REST_NAME_EXCEPTIONS[graphqlName] : snakeCase(graphqlName);
    if (restNames.size < REST_NAMES_CACHED) restNames.set(graphqlName, name);
  }
  return name;
}

/** `compare_at` → `compareAt`; the inverse of restName for every name restName produces. */
export function graphqlName(restAttribute: string): string {
  return Object.hasOwn(GRAPHQL_NAME_EXCEPTIONS, restAttribute) ? GRAPHQL_NAME_EXCEPTIONS[restAttribute] : camelCase(restAttribute);
}
