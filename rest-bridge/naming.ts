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

/** A route's query parameter (types.ts QueryParamSpec): its REST name, and the GraphQL argument it feeds when not by the rule. */
export interface QueryName {
  name: string;
  graphql?: string;
}

/** The JSON:API query families a GraphQL argument stands for: `filter.priceMin` → `filter[price_min]`, `pageSize` → `page[size]`, `page` → `page[number]`. */
function queryFamilyName(parameter: string): string | undefined {
  if (parameter === 'pageSize') return 'page[size]';
  if (parameter === 'page') return 'page[number]';
  const filter = /^filter\.([a-z][A-Za-z0-9]*)$/.exec(parameter);
  return filter ? `filter[${restName(filter[1])}]` : undefined;
}

/**
 * An error's `parameter` as a REST client names it. Subgraphs name parameters in GraphQL terms
 * (`urlId`, `bundleItems[2].productId`, `filter.priceMin`, `pageSize`); each name becomes its REST
 * attribute (restName), and a JSON:API query family the route takes (`queryNames`: `filter[price_min]`,
 * `page[size]`) is named as the route writes it. Below a free-form value (`freeForm`: names typed
 * JSON, `metadata.someKey`) the names are the client's own and stay as written; so does what is not
 * a GraphQL name (a header, `X-Platform`). A name already in REST spelling converts to itself.
 */
export function restParameter(parameter: string, query: readonly QueryName[] = [], freeForm: ReadonlySet<string> = new Set()): string {
  const named = query.find((q) => q.graphql === parameter);
  if (named) return named.name;
  const queryNames = query.map((q) => q.name);
  const family = queryFamilyName(parameter);
  if (family && queryNames.includes(family)) return family;
  const segments = parameter.split('.');
  for (let i = 0; i < segments.length; i++) {
    const m = /^([a-z][A-Za-z0-9]*)(.*)$/.exec(segments[i]);
    if (!m) break;
    segments[i] = restName(m[1]) + m[2];
    if (freeForm.has(m[1])) break;
  }
  return segments.join('.');
}

/**
 * An error message that names its parameter (`urlId must not be empty`, `filter.priceMin is above
 * filter.priceMax`), with those names as the REST client writes them: the parameter itself, and the
 * route's JSON:API filters.
 */
export function restMessage(message: string, parameter: string | undefined, query: readonly QueryName[] = [], freeForm: ReadonlySet<string> = new Set()): string {
  const names = new Map<string, string>();
  if (parameter) names.set(parameter, restParameter(parameter, query, freeForm));
  for (const { name: q } of query) {
    const filter = /^filter\[([a-z0-9_]+)\]$/.exec(q);
    if (filter) names.set(`filter.${graphqlName(filter[1])}`, q);
  }
  let out = message;
  for (const [graphql, rest] of names) {
    if (graphql !== rest) out = out.replace(new RegExp(`(?<![\\w.\\[])${escapeRegExp(graphql)}(?![\\w\\[])`, 'g'), rest);
  }
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
