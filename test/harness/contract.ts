// The contract suite's machinery (test/contract/contract.*.test.ts): the documents' rows as
// extracted by scripts/contract-extract.ts (test/contract/documents/*.json, committed), the bridge
// route each documented path maps to, the request each row documents (envelope and type as the
// document writes them), and the checks of a documented shape (names present, types as written).
// Requests reuse the security suite's fixtures (security.ts): path params filled with a fresh
// tenant's real resources, the smallest valid attributes of each body.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROUTES } from '../../rest-bridge/routes/index.js';
import type { Route } from '../../rest-bridge/types.js';
import type { Attr, ContractDocument, EndpointRow } from '../../scripts/contract-markdown.js';
import { rest, type HttpResult } from './client.js';
import { bodyFor, credentialsFor, ensureResources, expectServiceError, pathFor, type SecTenant } from './security.js';
import { imageRouteForm } from './catalog-images.fixtures.js';
import { visionRouteForm } from './catalog-vision.fixtures.js';
import { ROOT } from './spawn.js';

export type { Attr, ContractDocument, EndpointRow };

export function loadDocument(name: 'platform' | 'ai' | 'products-and-search'): ContractDocument {
  return JSON.parse(readFileSync(resolve(ROOT, 'test', 'contract', 'documents', `${name}.json`), 'utf8')) as ContractDocument;
}

/** A resource's key in the suites' plans: its heading, lower_snake ("Agent context" → agent_context). */
export const resourceKey = (heading: string) => heading.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

const norm = (p: string) => p.replace(/:[A-Za-z_]\w*/g, ':');

/**
 * The bridge routes serving a documented row: same method and path shape (param names may differ);
 * a CRUD row is the collection and its member paths, every method the bridge serves there.
 */
export function routesFor(row: Pick<EndpointRow, 'method' | 'path'>): Route[] {
  const p = norm(row.path);
  if (row.method === 'CRUD') return ROUTES.filter((r) => norm(r.path) === p || norm(r.path) === `${p}/:`);
  return ROUTES.filter((r) => r.method === row.method && norm(r.path) === p);
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** Why `value` is not of the documented type (undefined: it is). `null` passes where the document says "or null". */
export function typeProblem(value: unknown, attr: Attr): string | undefined {
  if (value === null) return /null/.test(attr.raw ?? '') ? undefined : 'null';
  const ok: Record<string, (v: unknown) => boolean> = {
    string: (v) => typeof v === 'string',
    integer: (v) => Number.isInteger(v),
    number: (v) => typeof v === 'number' && Number.isFinite(v),
    boolean: (v) => typeof v === 'boolean',
    object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
    array: (v) => Array.isArray(v),
    datetime: (v) => typeof v === 'string' && ISO.test(v),
  };
  if (attr.type && !ok[attr.type](value)) return `${JSON.stringify(value)?.slice(0, 80)} is not ${attr.type === 'datetime' ? 'an ISO 8601 datetime' : `a${/^[aeiou]/.test(attr.type) ? 'n' : ''} ${attr.type}`}`;
  return undefined;
}

/**
 * What in `obj` departs from the documented attributes: a name missing, a value of another type,
 * and the same for the fields of each element of a documented array (or of a documented object).
 * `nullable`: a documented name answered as null is present (a response may leave an optional value unset).
 */
export function shapeProblems(obj: unknown, attrs: readonly Attr[], where: string, opts: { nullable?: boolean } = {}): string[] {
  if (typeof obj !== 'object' || obj === null) return [`${where} is not an object: ${JSON.stringify(obj)?.slice(0, 120)}`];
  const out: string[] = [];
  for (const a of attrs) {
    const v = valueAt(obj, a.name);
    if (v === undefined) {
      out.push(`${where}.${a.name} is missing`);
      continue;
    }
    if (v === null && opts.nullable) continue;
    const p = typeProblem(v, a);
    if (p) out.push(`${where}.${a.name}: ${p}`);
    if (a.items?.length) {
      if (Array.isArray(v)) v.slice(0, 3).forEach((el, i) => out.push(...shapeProblems(el, a.items!, `${where}.${a.name}[${i}]`, opts)));
      else if (v && typeof v === 'object') out.push(...shapeProblems(v, a.items, `${where}.${a.name}`, opts));
    }
  }
  return out;
}

/** `a.b` reads a nested value; a name with brackets (`page[size]`) is one key. */
export function valueAt(obj: unknown, name: string): unknown {
  let cur: unknown = obj;
  for (const part of name.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/**
 * How the document writes a row's request body:
 *  - `typed`: `{ data: { type: <the documented type>, attributes } }`;
 *  - `inData`: the fields right under `data` (`data.adjustments`, "`data`: quantity, order_id…");
 *  - `plain`: the fields at the top level ("body fields `name`…", "body as the agent context table", "body `processing_mode`");
 *  - `envelope`: the document names no type: the JSON:API envelope with the product's type.
 */
export type BodyStyle = 'typed' | 'inData' | 'plain' | 'envelope';

export function bodyStyle(row: EndpointRow, styles: Readonly<Record<string, BodyStyle>> = {}): BodyStyle {
  if (styles[row.id]) return styles[row.id];
  if (row.requestType) return 'typed';
  const note = row.note ?? '';
  if (/`data\.[a-z_]+`|`data`:/.test(note)) return 'inData';
  if (/body fields|body as the|^body `/i.test(note)) return 'plain';
  return 'envelope';
}

/** The documented request of `row` as served by `route`: the harness's minimal attributes in the document's envelope. */
export function documentedBody(row: EndpointRow, route: Route, t: SecTenant, styles?: Readonly<Record<string, BodyStyle>>, attributes?: Record<string, unknown>): unknown {
  if (!route.body) return undefined;
  const attrs = attributes ?? (bodyFor(route, t) as { data: { attributes: Record<string, unknown> } }).data.attributes;
  switch (bodyStyle(row, styles)) {
    case 'typed':
      return { data: { type: row.requestType, attributes: attrs } };
    case 'inData':
      return { data: attrs };
    case 'plain':
      return attrs;
    case 'envelope':
      return { data: { type: route.body.type, attributes: attrs } };
  }
}

/** One documented request of the row through `route`, as tenant `t` (fixtures from the security suite). */
export async function documentedCall(row: EndpointRow, route: Route, t: SecTenant, opts: { styles?: Readonly<Record<string, BodyStyle>>; attributes?: Record<string, unknown>; query?: string; headers?: Record<string, string>; params?: Record<string, string> } = {}): Promise<HttpResult> {
  await ensureResources(route, t);
  const headers = opts.headers ?? credentialsFor(route, t);
  const path = `${pathFor(route, t, opts.params)}${opts.query ? `?${opts.query}` : ''}`;
  if (route.multipart) return rest(route.method, path, { headers, form: (await visionRouteForm(route)) ?? (await imageRouteForm()) });
  return rest(route.method, path, { headers, ...(route.body ? { body: documentedBody(row, route, t, opts.styles, opts.attributes) } : {}) });
}

/** The documented success status of a row ("Response 201", "response 201"), when the document gives one. */
export function documentedStatus(row: EndpointRow): number | undefined {
  const m = /\bresponse (\d{3})\b/i.exec(row.note ?? '');
  return m ? Number(m[1]) : undefined;
}

/**
 * Rows this branch expects to fail because of defects another engineer fixes in parallel (issue 29
 * items 1–9, named by number): their tests run as `test.failing`, so they pass while the defect is
 * there and fail, asking to be removed from the list, once the fix is merged.
 */
export type KnownElsewhere = Readonly<Record<string, number>>;

/** `test`, or `test.failing` for a row listed in `known`. */
export function rowTest(known: KnownElsewhere, id: string): typeof test {
  return (known[id] ? test.failing : test) as typeof test;
}

/** Prints how many documented rows of each kind a suite covers (one line per file). */
export function printCoverage(document: string, counts: Record<string, number>): void {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(`contract (${document}): ${total} documented rows covered: ${Object.entries(counts).map(([k, n]) => `${k} ${n}`).join(', ')}`);
}

// ---------------------------------------------------------------------------------------------
// The suites: every row runs once in beforeAll (a fresh tenant each, a few at a time); one test per
// row reports what departs from the document.

/** Run `task` over `items`, at most `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]);
  }));
}

const CONCURRENCY = Number(process.env.CONTRACT_CONCURRENCY) || 4;

/**
 * Rows that run model inference on images (seconds of CPU each): one at a time after the others, so
 * a loaded machine does not stack them past the gateway's timeout.
 */
const HEAVY = /\/image\/|\/moderation\/image|^POST \/v1\/products\/search$|\/process$/;

/** Rows run in beforeAll; `check` answers the problems found (empty: the row holds). */
export function rowSuite<R extends { id: string }>(title: string, rows: readonly R[], known: KnownElsewhere, check: (row: R) => Promise<string[]>): void {
  const problems = new Map<string, string[]>();
  const run = async (row: R) => {
    try {
      problems.set(row.id, await check(row));
    } catch (e) {
      problems.set(row.id, [`threw: ${(e as Error).message.slice(0, 1500)}`]);
    }
  };
  describe(title, () => {
    beforeAll(async () => {
      await pool(rows.filter((r) => !HEAVY.test(r.id)), CONCURRENCY, run);
      await pool(rows.filter((r) => HEAVY.test(r.id)), 1, run);
      const broken = [...problems.values()].filter((p) => p.length).length;
      console.log(`contract ${title}: ${rows.length} rows, ${broken} not as documented`);
    }, 900_000);
    for (const row of rows) rowTest(known, row.id)(row.id, () => expect(problems.get(row.id) ?? ['not run']).toEqual([]));
  });
}

/**
 * A successful answer's problems: status, JSON:API document, documented type and attributes. `flat`:
 * the document writes the answer's fields right under `data` (`data.suggestions`), not as a resource.
 */
export function successProblems(row: EndpointRow, route: Route, res: HttpResult, flat = false): string[] {
  const out: string[] = [];
  const want = documentedStatus(row);
  const text = `${res.status} ${JSON.stringify(res.body)?.slice(0, 400)}`;
  if (want ? res.status !== want : res.status < 200 || res.status > 299) return [`${route.method} ${route.path}: expected ${want ?? '2xx'}, got ${text}`];
  const data = res.body?.data;
  const items: any[] = Array.isArray(data) ? data : [data];
  if (route.list && !Array.isArray(data)) out.push(`data is not an array: ${text}`);
  for (const d of items.slice(0, 3)) {
    if (typeof d !== 'object' || d === null) {
      out.push(`data is not a resource object: ${text}`);
      continue;
    }
    if (flat) continue; // its fields are the row's own check (PathSuiteOptions.extra)
    if (!('id' in d) || typeof d.type !== 'string' || typeof d.attributes !== 'object') out.push(`data lacks id, type or attributes: ${text}`);
    if (row.responseType && d.type !== row.responseType) out.push(`data.type is ${d.type}, documented ${row.responseType}`);
    if (row.responseAttrs) out.push(...shapeProblems({ id: d.id, ...d.attributes }, row.responseAttrs, 'data.attributes', { nullable: true }));
  }
  return out;
}

export interface PathSuiteOptions {
  known: KnownElsewhere;
  /** rows whose body the document describes outside the row itself (a paragraph below the table), by row id */
  styles?: Readonly<Record<string, BodyStyle>>;
  /** rows whose answer the document writes as fields right under `data`, not a resource with attributes */
  flat?: readonly string[];
  /** checks of what the document says in prose about a row's answer, by row id */
  extra?: Record<string, (res: HttpResult, route: Route) => string[]>;
  /** query strings a row needs (a GET documented with a required query parameter), by row id */
  query?: Record<string, string>;
  /** attributes a row is called with instead of the harness's minimal ones (documented request attributes, a query that has facets) */
  attributes?: Record<string, (t: SecTenant) => Record<string, unknown>>;
  plan?: string;
  setup?(): Promise<void>;
  /** path params and attributes a row needs that the security suite's fixtures do not make, by row id */
  prepare?: Record<string, (t: SecTenant) => Promise<{ params?: Record<string, string>; attributes?: Record<string, unknown> }>>;
}

/** Each documented path answers its documented shape (one call per bridge route serving the row). */
export function pathSuite(doc: ContractDocument, opts: PathSuiteOptions, createTenant: (plan?: string) => Promise<SecTenant>): void {
  // platform writes change the tenant itself (its account, subscription, accesses) and deletes remove
  // what other rows use: a fresh tenant each; other rows share a few tenants
  const shared: Promise<SecTenant>[] = [];
  let turn = 0;
  const fresh = (route: Route) => route.method === 'DELETE' || (route.auth === 'jwt+platform' && route.method !== 'GET');
  const tenantFor = (route: Route) => (fresh(route) ? createTenant(opts.plan) : (shared[turn++ % CONCURRENCY] ??= createTenant(opts.plan)));
  rowSuite(`paths of ${doc.document}`, doc.endpoints, opts.known, async (row) => {
    if (row.path.startsWith('/health')) {
      const r = await rest('GET', row.path);
      return r.status === 200 ? (opts.extra?.[row.id]?.(r, undefined as never) ?? []) : [`GET ${row.path}: ${r.status}`];
    }
    const routes = routesFor(row);
    if (!routes.length) return [`no bridge route serves ${row.method} ${row.path}`];
    await opts.setup?.();
    const out: string[] = [];
    for (const route of routes) {
      const t = await tenantFor(route);
      if (row.requestType && route.body === undefined) out.push(`${route.method} ${route.path} takes no body; the document names ${row.requestType}`);
      const prepared = (await opts.prepare?.[row.id]?.(t)) ?? {};
      const res = await documentedCall(row, route, t, { styles: opts.styles, query: opts.query?.[row.id], params: prepared.params, attributes: prepared.attributes ?? opts.attributes?.[row.id]?.(t) });
      out.push(...successProblems(row, route, res, opts.flat?.includes(row.id)));
      if (res.status < 300) out.push(...(opts.extra?.[row.id]?.(res, route) ?? []));
    }
    return out;
  });
}

/**
 * Each documented request attribute is accepted: the row's request with every attribute the
 * document lists, valued by `samples` (each sample must be of the documented type, and every
 * documented attribute must have one).
 */
export function requestAttributeSuite(doc: ContractDocument, samples: Record<string, (t: SecTenant) => Record<string, unknown>>, opts: PathSuiteOptions, createTenant: (plan?: string) => Promise<SecTenant>): void {
  const rows = doc.endpoints.filter((r) => r.requestAttrs?.length);
  rowSuite(`request attributes of ${doc.document}`, rows, opts.known, async (row) => {
    const routes = routesFor(row).filter((r) => r.method === row.method);
    if (!routes.length) return [`no bridge route serves ${row.method} ${row.path}`];
    await opts.setup?.();
    const t = await createTenant(opts.plan);
    const sample = samples[row.id]?.(t);
    if (!sample) return [`no sample values for ${row.id}: add them to the suite`];
    const out: string[] = [];
    for (const a of row.requestAttrs!) {
      if (!(a.name in sample)) out.push(`no sample for documented attribute ${a.name}`);
      else {
        const p = typeProblem(sample[a.name], a);
        if (p) out.push(`sample of ${a.name}: ${p}`);
      }
    }
    if (out.length) return out;
    for (const route of routes) {
      const res = await documentedCall(row, route, t, { styles: opts.styles, attributes: sample });
      out.push(...successProblems({ ...row, responseAttrs: undefined }, route, res));
    }
    return out;
  });
}

/**
 * How a documented resource is written and read back through the bridge: `values` are the fields
 * the client writes (by REST name, of the documented types), `create` writes them, `read` answers
 * the stored record (another request). Fields not in `values` are the service's (identifiers,
 * computed flags, timestamps): checked for presence and type.
 */
export interface FieldPlan {
  plan?: string;
  /** the fields are a request's (the search request's attributes): accepted is all there is to check */
  acceptedOnly?: boolean;
  values(t: SecTenant): Promise<Record<string, unknown>> | Record<string, unknown>;
  create(t: SecTenant, values: Record<string, unknown>): Promise<HttpResult>;
  read(t: SecTenant, created: HttpResult, values: Record<string, unknown>): Promise<HttpResult>;
  /** where the fields are in the read answer (data.attributes, with data.id as `id`, by default) */
  fields?(read: HttpResult, created: HttpResult): unknown;
}

const attributesOf = (res: HttpResult): unknown => {
  const d = Array.isArray(res.body?.data) ? res.body.data[0] : res.body?.data;
  return d && typeof d === 'object' ? { id: d.id, type: d.type, ...d.attributes } : undefined;
};

/** Deep equality of a written value and its answer; objects may carry more keys than were written. */
function sameValue(sent: unknown, got: unknown): boolean {
  if (typeof sent === 'object' && sent !== null && typeof got === 'object' && got !== null) {
    if (Array.isArray(sent)) return Array.isArray(got) && sent.length === got.length && sent.every((v, i) => sameValue(v, got[i]));
    return Object.entries(sent).every(([k, v]) => sameValue(v, (got as Record<string, unknown>)[k]));
  }
  if (typeof sent === 'string' && typeof got === 'string' && ISO.test(sent) && ISO.test(got)) return Date.parse(sent) === Date.parse(got);
  return sent === got;
}

/** Each field of each field table is accepted, stored and answered with its documented type. */
export function fieldSuite(doc: ContractDocument, plans: Record<string, FieldPlan>, known: KnownElsewhere, createTenant: (plan?: string) => Promise<SecTenant>): void {
  const rows = doc.fields.filter((f) => f.kind !== 'query');
  const runs = new Map<string, Promise<{ sent: Record<string, unknown>; created: HttpResult; read: HttpResult; plan: FieldPlan }>>();
  const run = (resource: string, plan: FieldPlan) => {
    if (!runs.has(resource)) {
      runs.set(resource, (async () => {
        const t = await createTenant(plan.plan);
        const sent = await plan.values(t);
        const created = await plan.create(t, sent);
        if (created.status < 200 || created.status > 299) throw new Error(`writing ${resource} with every documented field: ${created.status} ${JSON.stringify(created.body).slice(0, 600)}`);
        return { sent, created, read: await plan.read(t, created, sent), plan };
      })());
    }
    return runs.get(resource)!;
  };
  rowSuite(`fields of ${doc.document}`, rows, known, async (row) => {
    const plan = plans[resourceKey(row.resource)];
    if (!plan) return [`no plan for resource "${resourceKey(row.resource)}": add one to the suite`];
    const { sent, created, read, plan: p } = await run(resourceKey(row.resource), plan);
    if (p.acceptedOnly) {
      const v = valueAt(sent, row.name);
      return v === undefined ? [`no value written for ${row.name}`] : [typeProblem(v, row)].filter((x): x is string => !!x);
    }
    if (read.status < 200 || read.status > 299) return [`reading ${row.resource} back: ${read.status} ${JSON.stringify(read.body).slice(0, 400)}`];
    const fields = p.fields ? p.fields(read, created) : attributesOf(read);
    const got = valueAt(fields, row.name);
    const written = valueAt(sent, row.name);
    if (got === undefined) return [`${row.name} is not answered${written !== undefined ? ` (written: ${JSON.stringify(written)})` : ''}`];
    const out: string[] = [];
    const problem = typeProblem(got, row);
    if (problem) out.push(`${row.name}: ${problem}`);
    if (written !== undefined && !sameValue(written, got)) out.push(`${row.name}: wrote ${JSON.stringify(written)}, read back ${JSON.stringify(got)}`);
    if (row.items?.length) out.push(...shapeProblems(Array.isArray(got) ? got[0] ?? {} : got, row.items, row.name, { nullable: true }).filter(() => !Array.isArray(got) || got.length > 0));
    return out;
  });
}

/** Each documented query parameter is accepted with a value of its type (`samples`: the query string of each row). */
export function queryParamSuite(doc: ContractDocument, samples: Record<string, { path: string; query: (t: SecTenant) => string | Promise<string> }>, known: KnownElsewhere, createTenant: (plan?: string) => Promise<SecTenant>, headersOf: (t: SecTenant, path: string) => Record<string, string>): void {
  const rows = doc.fields.filter((f) => f.kind === 'query');
  let shared: Promise<SecTenant> | undefined;
  rowSuite(`query parameters of ${doc.document}`, rows, known, async (row) => {
    const s = samples[row.id];
    if (!s) return [`no sample for ${row.id}: add it to the suite`];
    const t = await (shared ??= createTenant());
    const query = await s.query(t);
    const r = await rest('GET', `${s.path}?${query}`, { headers: headersOf(t, s.path) });
    return r.status === 200 && r.body?.data !== undefined ? [] : [`GET ${s.path}?${query}: ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`];
  });
}

/**
 * Each documented error code is reachable with its documented status: `recipes` bring the condition
 * the error table's "meaning" names about; the answer must carry the code in the service's error
 * shape (expectServiceError) and the documented status (where the table gives none: a 4xx).
 */
export function errorSuite(doc: ContractDocument, service: 'platform' | 'products' | 'search' | 'ai', rowsOf: (doc: ContractDocument) => ContractDocument['errors'], recipes: Record<string, () => Promise<HttpResult>>, known: KnownElsewhere): void {
  rowSuite(`error codes of ${doc.document} (${service})`, rowsOf(doc), known, async (row) => {
    const recipe = recipes[row.code];
    if (!recipe) return [`no recipe reaches ${row.code}: add one to the suite`];
    const res = await recipe();
    const status = row.status ?? res.status;
    if (row.status === null && (res.status < 400 || res.status > 499)) return [`${row.code}: expected a 4xx, got ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`];
    try {
      expectServiceError(res, service, status, row.code);
      return [];
    } catch (e) {
      return [`${row.code} (${row.status ?? '4xx'}): ${(e as Error).message.split('\n').slice(0, 12).join(' ').slice(0, 800)}`];
    }
  });
}

/**
 * What the product does for one resource the document says has fields it does not show
 * (documents/*.json `fieldsNotShown`, one row each):
 *  - `keeps`: a record: `write` sends the given attributes beyond the listed ones (2xx, answered as
 *    given) and `read` answers the record again through another request (attributes, or undefined
 *    when not found), which must carry them too;
 *  - `refuses`: only the answer's fields are not shown, the request's are listed: an unknown
 *    attribute is a 422 VALIDATION_FAILED naming it;
 *  - `notServed`: the product serves no path of the resource (the document shows none either):
 *    `path` answers 404;
 *  - `noBody`: the product's only write of the resource takes no body: the route has none.
 */
export type FieldsNotShownPlan =
  | { keeps: { write(t: SecTenant, extra: Record<string, unknown>): Promise<HttpResult>; read(t: SecTenant, written: HttpResult): Promise<Record<string, unknown> | undefined> } }
  | { refuses: { service: 'platform' | 'products' | 'search' | 'ai'; write(t: SecTenant, extra: Record<string, unknown>): Promise<HttpResult> } }
  | { notServed: { method: string; path: string; headers(t: SecTenant): Record<string, string> } }
  | { noBody: { method: string; path: string } };

/** Attributes no document lists, sent to every resource of the rows below. */
const UNLISTED = { unlisted_note: 'kept as given', unlistedCount: 3, unlisted_tags: ['a', { b: null }] };

/** The README's rule: attributes beyond the listed ones are kept as given where a document says a resource has fields it does not show. */
export function fieldsNotShownSuite(doc: ContractDocument, plans: Record<string, FieldsNotShownPlan>, known: KnownElsewhere, createTenant: () => Promise<SecTenant>): void {
  rowSuite(`resources with fields not shown of ${doc.document}`, doc.fieldsNotShown, known, async (row) => {
    const plan = plans[resourceKey(row.resource)];
    if (!plan) return [`no plan for "${row.resource}" (${row.scope}): say how the product keeps, refuses or does not serve its fields`];
    if ('refuses' in plan !== (row.scope === 'response')) return [`"${row.resource}": the ${row.scope} scope needs ${row.scope === 'response' ? 'a refuses' : 'a keeps, notServed or noBody'} plan`];
    if ('noBody' in plan) {
      const routes = routesFor(plan.noBody);
      return routes.length && routes.every((r) => !r.body) ? [] : [`${plan.noBody.method} ${plan.noBody.path}: ${routes.length ? 'takes a body now: keep its unlisted attributes' : 'not served'}`];
    }
    const t = await createTenant();
    if ('notServed' in plan) {
      const r = await rest(plan.notServed.method, plan.notServed.path, { headers: plan.notServed.headers(t), body: plan.notServed.method === 'GET' ? undefined : UNLISTED });
      return r.status === 404 ? [] : [`${plan.notServed.method} ${plan.notServed.path}: ${r.status} (served now: keep its unlisted attributes)`];
    }
    if ('refuses' in plan) {
      try {
        expectServiceError(await plan.refuses.write(t, { unlisted_note: 'x' }), plan.refuses.service, 422, 'VALIDATION_FAILED', { parameter: 'unlisted_note' });
        return [];
      } catch (e) {
        return [(e as Error).message.split('\n').slice(0, 12).join(' ').slice(0, 800)];
      }
    }
    const written = await plan.keeps.write(t, UNLISTED);
    if (written.status < 200 || written.status > 299) return [`writing with unlisted attributes: ${written.status} ${JSON.stringify(written.body).slice(0, 400)}`];
    const out: string[] = [];
    const answered = written.body?.data?.attributes;
    if (!sameValue(UNLISTED, answered)) out.push(`the write answered ${JSON.stringify(answered).slice(0, 400)}, not the unlisted attributes as given`);
    const read = await plan.keeps.read(t, written);
    if (!sameValue(UNLISTED, read)) out.push(`read back: ${JSON.stringify(read).slice(0, 400)}, not the unlisted attributes as given`);
    return out;
  });
}
