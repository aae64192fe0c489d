// The hostile-client suite (issue 13): reads /openapi.json and sends generated bad inputs to every
// operation (malformed JSON, wrong content type, wrong types, huge and deep values, NUL and lone
// surrogates, prototype keys, many unknown keys, garbage and overlong path and query parameters,
// missing and wrong credentials), then bad GraphQL to the gateway (depth, aliases, fragment cycles
// and explosions, batching, wrong variables, unknown operation names). Fails on any 5xx, an error
// body that is not JSON, a dropped connection, or an answer slower than SLOW_MS; prints the count.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../harness/spawn.js';
import { ROUTES } from '../../rest-bridge/routes/index.js';
import type { Route } from '../../rest-bridge/types.js';
import { jsonApi, rest, stack } from '../harness/client.js';
import { createKey, createSecTenant, credentialsFor, expectServiceError, jwtWithWrongSecret, unknownKeyLike, type SecTenant } from '../harness/security.js';
import { createIndex } from './search.helpers.js';

/** An answer slower than this fails (the machine running CI is shared and busy: generous on purpose). */
const SLOW_MS = 10_000;
const CONCURRENCY = 8;
/** every finding as it happens, one JSON line each (the run may be cut short by its timeout) */
const FINDINGS_LOG = resolve(ROOT, '.data', 'test-logs', 'fuzz-findings.jsonl');

interface Probe {
  what: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** built when sent: the large bodies of ~200 operations would not fit in memory at once */
  body?: string | (() => string);
}
interface Finding {
  what: string;
  status: number | string;
  ms: number;
  body: string;
}

type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; $ref?: string; const?: unknown; oneOf?: Schema[] };
interface OpenApiOperation {
  operationId: string;
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

let openapi: { paths: Record<string, Record<string, OpenApiOperation>> };
let t: SecTenant;
let sent = 0;
const findings: Finding[] = [];
let slowest = { what: '', ms: 0 };

async function send(p: Probe): Promise<void> {
  const started = performance.now();
  let status: number | string;
  let text = '';
  let contentType = '';
  try {
    const body = typeof p.body === 'function' ? p.body() : p.body;
    const r = await fetch(p.url, { method: p.method, headers: p.headers, body, signal: AbortSignal.timeout(SLOW_MS * 3) });
    status = r.status;
    contentType = r.headers.get('content-type') ?? '';
    text = await r.text();
  } catch (e) {
    status = `connection failed: ${(e as Error).message}`;
  }
  const ms = performance.now() - started;
  sent++;
  if (ms > slowest.ms) slowest = { what: p.what, ms };
  const bad =
    typeof status === 'string' ||
    // /health/ready and /health/detailed answer 503 when a component is slow or down: their documented answer
    (status >= 500 && !(status === 503 && /\/health\//.test(p.url))) ||
    ms > SLOW_MS ||
    (status >= 400 && (!/json/.test(contentType) || !isJson(text)));
  if (bad) {
    findings.push({ what: p.what, status, ms: Math.round(ms), body: text.slice(0, 300) });
    appendFileSync(FINDINGS_LOG, JSON.stringify(findings[findings.length - 1]) + '\n');
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

async function runAll(probes: Probe[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < probes.length) await send(probes[next++]);
    }),
  );
}

function routeOf(method: string, path: string): Route | undefined {
  const p = path.replace(/\{(\w+)\}/g, ':$1');
  return ROUTES.find((r) => r.method === method.toUpperCase() && r.path === p);
}

function resolveRef(s: Schema | undefined, components: Record<string, Schema>): Schema | undefined {
  return s?.$ref ? components[s.$ref.split('/').pop()!] : s;
}

/** A value of another type than the schema says. */
function wrongType(s: Schema | undefined): unknown {
  switch (s?.type) {
    case 'string':
      return { not: 'a string' };
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return 'not a list';
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return [[{}]];
  }
}

function nested(levels: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < levels; i++) v = { n: v };
  return v;
}

const GARBAGE_PARAMS = ['a%00b', '%ED%A0%80', '%ZZ', 'x'.repeat(8000), '..%2F..%2Fetc%2Fpasswd', "'%20OR%201=1--%E2%80%AE", '__proto__'];
const GARBAGE_QUERY = ['%00', '%ED%A0%80', 'x'.repeat(8000), '-1', '99999999999999999999', '1e309', '[]'];

function restProbes(path: string, method: string, op: OpenApiOperation, components: Record<string, Schema>): Probe[] {
  const route = routeOf(method, path);
  const base = stack().rest;
  const creds = route ? credentialsFor(route, t) : {};
  const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const fill = (value: string) => path.replace(/\{(\w+)\}/g, () => value);
  const ordinaryPath = fill('doesnotexist123');
  const M = method.toUpperCase();
  const label = `${M} ${path}`;
  const probes: Probe[] = [];
  const json = { 'content-type': 'application/json' };
  const add = (what: string, url: string, headers: Record<string, string>, body?: string | (() => string)) => probes.push({ what: `${label}: ${what}`, method: M, url, headers, body });

  // credentials
  add('no credentials', base + ordinaryPath, {});
  add('wrong JWT', base + ordinaryPath, { authorization: `Bearer ${jwtWithWrongSecret()}`, 'x-platform': t.platformCode });
  add('wrong API key', base + ordinaryPath, { 'x-app-id': t.appId, 'x-api-key': unknownKeyLike(t.secretKey) });
  add('garbage bearer', base + ordinaryPath, { authorization: 'Bearer xx.yy.zz', 'x-app-id': 'app_x' });

  // path parameters
  if (params.length) for (const g of GARBAGE_PARAMS) add(`path param ${g.slice(0, 20)}`, base + fill(g), creds);

  // query parameters: the documented ones, garbage values, and bracket floods
  for (const q of (op.parameters ?? []).filter((p) => p.in === 'query')) {
    for (const g of GARBAGE_QUERY) add(`query ${q.name}=${g.slice(0, 20)}`, `${base}${ordinaryPath}?${encodeURIComponent(q.name).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${g}`, creds);
  }
  add('query bracket flood', `${base}${ordinaryPath}?${'filter[a][b][c][d][e][f][g][h]=1&'.repeat(200)}`, creds);
  add('query many params', `${base}${ordinaryPath}?${Array.from({ length: 3000 }, (_, i) => `p${i}=1`).join('&')}`, creds);

  // bodies
  const content = op.requestBody?.content;
  if (content?.['application/json']) {
    // the JSON:API shape of the body (the first of its oneOf; the second is the plain object of the attributes)
    const schema = content['application/json'].schema.oneOf?.[0] ?? content['application/json'].schema;
    const data = resolveRef(schema.properties?.data, components);
    const typeName = (data?.properties?.type?.const as string | undefined) ?? 'things';
    const attrSchema = resolveRef(data?.properties?.attributes, components);
    const attrs = attrSchema?.properties ?? {};
    const names = Object.keys(attrs);
    const doc = (attributes: unknown) => () => JSON.stringify({ data: { type: typeName, attributes } });
    const all = (f: (name: string, s: Schema) => unknown) => Object.fromEntries(names.map((n) => [n, f(n, resolveRef(attrs[n], components) ?? {})]));
    const url = base + ordinaryPath;
    add('malformed JSON', url, { ...creds, ...json }, '{"data": {"type": ');
    add('text/plain body', url, { ...creds, 'content-type': 'text/plain' }, 'hello');
    add('no content type', url, { ...creds }, doc({}));
    add('JSON array body', url, { ...creds, ...json }, '[1,2,3]');
    add('JSON string body', url, { ...creds, ...json }, '"data"');
    add('wrong data.type', url, { ...creds, ...json }, JSON.stringify({ data: { type: 'nope', attributes: {} } }));
    add('attributes a list', url, { ...creds, ...json }, JSON.stringify({ data: { type: typeName, attributes: [1] } }));
    add('wrong types', url, { ...creds, ...json }, doc(all((_n, s) => wrongType(s))));
    add('nulls', url, { ...creds, ...json }, doc(all(() => null)));
    const share = Math.floor(900_000 / Math.max(1, names.length));
    add('huge values', url, { ...creds, ...json }, () => doc(all((_n, s) => (s.type === 'integer' || s.type === 'number' ? 1e308 : s.type === 'array' ? Array(Math.min(share, 50_000)).fill('x') : 'x'.repeat(share))))());
    add('deep values (30 levels)', url, { ...creds, ...json }, doc(all(() => nested(28))));
    add('deep values (40 levels)', url, { ...creds, ...json }, doc(all(() => nested(40))));
    add('NUL in strings', url, { ...creds, ...json }, doc(all(() => 'a\u0000b')));
    add('lone surrogates', url, { ...creds, ...json }, doc(all(() => 'a\ud800b')));
    add('prototype keys', url, { ...creds, ...json }, `{"data":{"type":"${typeName}","attributes":{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}}}`);
    add('5000 unknown keys', url, { ...creds, ...json }, () => doc(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`unknown_${i}`, i])))());
    add('brackets 100k deep', url, { ...creds, ...json }, () => '{"data":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}');
    add('over 1 MiB', url, { ...creds, ...json }, () => doc({ name: 'x'.repeat(1_100_000) })());
  }
  if (content?.['application/octet-stream']) {
    add('octet-stream garbage', base + ordinaryPath, { ...creds, 'content-type': 'application/octet-stream' }, '\u0000\u0001garbage');
  }
  return probes;
}

function gatewayProbes(): Probe[] {
  const url = stack().gateway;
  const headers = { 'content-type': 'application/json', ...t.keyHeaders };
  const platform = { 'content-type': 'application/json', ...t.platformHeaders };
  const probes: Probe[] = [];
  const add = (what: string, body: unknown, h: Record<string, string> = headers) =>
    probes.push({ what: `gateway: ${what}`, method: 'POST', url, headers: h, body: typeof body === 'string' ? body : JSON.stringify(body) });
  let deep = 'id';
  for (let i = 0; i < 200; i++) deep = `products(pageSize: 1) { items { ${deep} } }`;
  add('depth 200', { query: `{ ${deep} }` });
  add('1000 aliases', { query: `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: __typename`).join(' ')} }` });
  add('1000 introspection aliases', { query: `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: __schema { types { name fields { name } } }`).join(' ')} }` });
  add('fragment cycle', { query: 'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }' });
  let frags = 'fragment F0 on Query { __typename }\n';
  for (let i = 1; i <= 30; i++) frags += `fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }\n`;
  add('fragment explosion 2^30', { query: `query { ...F30 }\n${frags}` });
  add('batch', [{ query: '{ __typename }' }, { query: '{ __typename }' }]);
  add('batch of 1000', Array.from({ length: 1000 }, () => ({ query: '{ __typename }' })));
  add('unknown operationName', { query: '{ __typename }', operationName: 'Nope' });
  add('two operations, no name', { query: 'query A { __typename } query B { __typename }' });
  add('subscription over POST', { query: 'subscription { __typename }' });
  add('wrong variable type', { query: 'query($n: Int) { products(pageSize: $n) { total } }', variables: { n: 'many' } });
  add('variables a string', { query: '{ __typename }', variables: 'nope' });
  add('variables a list', { query: '{ __typename }', variables: [1] });
  add('undeclared variable', { query: '{ products(pageSize: $n) { total } }', variables: { n: 1 } });
  add('missing required variable', { query: 'query($id: ID!) { product(id: $id) { id } }' });
  add('NUL in variable', { query: 'query($id: ID!) { product(id: $id) { id } }', variables: { id: 'a\u0000' } });
  add('NUL in literal', { query: 'query { product(id: "a\\u0000") { id } }' });
  add('surrogate in literal', { query: 'query { product(id: "a\\ud800") { id } }' });
  add('many unknown input keys', {
    query: 'mutation($i: CreatePlatformInput!) { createPlatform(input: $i) { id } }',
    variables: { i: { code: 'x', name: 'y', ...Object.fromEntries(Array.from({ length: 8000 }, (_, i) => [`k${i}`, i])) } },
  }, platform);
  add('query 1 MiB of tokens', { query: `{ ${'__typename '.repeat(90_000)} }` });
  add('query not a string', { query: 42 });
  add('no query', { variables: {} });
  add('malformed JSON', '{"query": ');
  add('deep variables', `{"query":"query($f: JSON) { __typename }","variables":{"f":${'{"n":'.repeat(5000)}1${'}'.repeat(5000)}}}`);
  add('__proto__ variables', '{"query":"{ __typename }","variables":{"__proto__":{"x":1}}}');
  probes.push({ what: 'gateway: GET mutation', method: 'GET', url: `${url}?query=${encodeURIComponent('mutation { __typename }')}`, headers: t.keyHeaders });
  probes.push({ what: 'gateway: GET NUL', method: 'GET', url: `${url}?query=%00`, headers: t.keyHeaders });
  probes.push({ what: 'gateway: GET deep variables', method: 'GET', url: `${url}?query=${encodeURIComponent('{ __typename }')}&variables=${'%5B'.repeat(5000)}`, headers: t.keyHeaders });
  probes.push({ what: 'gateway: text/plain', method: 'POST', url, headers: { ...t.keyHeaders, 'content-type': 'text/plain' }, body: '{ __typename }' });
  probes.push({ what: 'gateway: no credentials', method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
  return probes;
}

beforeAll(async () => {
  mkdirSync(resolve(ROOT, '.data', 'test-logs'), { recursive: true });
  writeFileSync(FINDINGS_LOG, '');
  const r = await fetch(`${stack().rest}/openapi.json`);
  openapi = (await r.json()) as typeof openapi;
  t = await createSecTenant({ plan: 'growth' });
  // a key with room for every probe (the fixed window would otherwise answer 429 to most of them)
  const { key } = await createKey(t, { rateLimitPerMinute: 1_000_000 }).catch(() => ({ key: t.secretKey }));
  t.secretKey = key;
  t.keyHeaders = { 'x-app-id': t.appId, 'x-api-key': key };
}, 60_000);

test('every REST operation of /openapi.json and the gateway survive hostile input: no 5xx, JSON errors, no slow answer', async () => {
  const components = ((openapi as unknown as { components?: { schemas?: Record<string, Schema> } }).components?.schemas ?? {}) as Record<string, Schema>;
  const probes: Probe[] = [];
  let operations = 0;
  for (const [path, methods] of Object.entries(openapi.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      operations++;
      probes.push(...restProbes(path, method, op, components));
    }
  }
  probes.push(...gatewayProbes());
  const started = performance.now();
  await runAll(probes);
  const s = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`fuzz: ${sent} requests over ${operations} REST operations and the gateway in ${s} s; slowest ${Math.round(slowest.ms)} ms (${slowest.what}); ${findings.length} findings`);
  expect(findings).toEqual([]);
}, 600_000);

describe('deep search filters: the nesting bound answers 400 naming the limit, never a stack overflow', () => {
  const DEEP = [
    ['NOT × 5000', `${'NOT '.repeat(5000)}genre = a`],
    ['parentheses × 5000', `${'('.repeat(5000)}genre = a${')'.repeat(5000)}`],
    ['NOT and parentheses × 2000', `${'NOT ('.repeat(2000)}genre = a${')'.repeat(2000)}`],
  ] as const;
  let uid: string;
  // a tenant of its own: the probes above spend the fuzz tenant's app-wide rate limit (1,000 a minute)
  let d: SecTenant;
  beforeAll(async () => {
    d = await createSecTenant({ plan: 'growth' });
    uid = await createIndex(d, { primary_key: 'id', settings: { filterable_attributes: ['genre'] } });
  }, 60_000);

  test.each(DEEP)('%s on search, delete-by-filter, multi-search and the documents list', async (_what, filter) => {
    const h = d.keyHeaders;
    const answers = [
      await rest('POST', `/search/v1/indexes/${uid}/search`, { body: jsonApi('search_queries', { query: '', filter }), headers: h }),
      await rest('POST', `/search/v1/indexes/${uid}/search`, { body: jsonApi('search_queries', { query: '', filter: [[filter]] }), headers: h }),
      await rest('POST', `/search/v1/indexes/${uid}/documents/delete-by-filter`, { body: jsonApi('document_deletions', { filter }), headers: h }),
      await rest('POST', '/search/v1/multi-search', { body: jsonApi('multi_search_queries', { queries: [{ index_uid: uid, query: '', filter }] }), headers: h }),
    ];
    for (const r of answers) {
      const e = expectServiceError(r, 'search', 400, 'invalid_filter_syntax');
      expect(JSON.stringify(e)).toMatch(/limit of 200 levels/);
    }
    // a GET's query string is short: 300 levels still fit in it
    const get = await rest('GET', `/search/v1/indexes/${uid}/documents?filter=${encodeURIComponent(`${'('.repeat(300)}genre = a${')'.repeat(300)}`)}`, { headers: h });
    expect(JSON.stringify(expectServiceError(get, 'search', 400, 'invalid_filter_syntax', { parameter: 'filter' }))).toMatch(/limit of 200 levels/);
  });

  test('200 levels are still accepted', async () => {
    const r = await rest('POST', `/search/v1/indexes/${uid}/search`, { body: jsonApi('search_queries', { query: '', filter: `${'NOT '.repeat(100)}${'('.repeat(100)}genre = a${')'.repeat(100)}` }), headers: d.keyHeaders });
    expect(r.status).toBe(200);
  });
});
