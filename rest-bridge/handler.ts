// The request pipeline every route row goes through, in this order: match (404/405) → credentials
// present (401) → content type (415) → body size (413) → JSON (400) → JSON:API envelope (400/409)
// → query and path variables (400) → one GraphQL operation at the gateway → JSON:API document or
// the service's error body. Credentials come before the body so an anonymous caller learns nothing
// about payload validation.
import type { ClientAddressResolver } from '../lib/client-address.js';
import { answerPreflight, isKeyRequest, originAllowedWithoutKey, requestOrigin, setCorsHeaders } from '../lib/cors.js';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '../lib/errors.js';
import { BodyTooLargeError, MiB, pathOf, readBody, sendJson } from '../lib/http.js';
import { labelRoute } from '../lib/metrics.js';
import type { Logger } from '../lib/logger.js';
import type { ObjectStore } from '../lib/object-store.js';
import { bodyPointer, fromDomainError, fromGraphQLError, INTERNAL, isBridgeFault, renderErrors, restError, withDocumentedCode, withRequestId, type RestError } from './errors.js';
import type { GatewayClient } from './gateway-client.js';
import { basicHealth, detailedHealth, readiness, VERSION, type HealthAnswer } from './health.js';
import type { GraphQLSchema } from 'graphql';
import { loadApiSchema } from './api-schema.js';
import { deriveRoutes } from './derive.js';
import { markFreeForm, parseRequest, toGraphQLInput, type EnvelopeOptions, type RequestMembers } from './jsonapi.js';
import { linkDocument } from './resource-links.js';
import { checkEndpointLimit } from './endpoint-limits.js';
import type { RateLimiter } from '../lib/rate-limit.js';
import { buildOpenApi } from './openapi.js';
import { DOCS_PATH, sendDocs } from './docs-page.js';
import { DATA_ROOM_PATH, sendDataRoom } from './data-room.js';
import { checkPathParams, checkQueryString, parseCheckedJson } from '../lib/input-policy.js';
import type { Operation } from './operations.js';
import { parseQuery } from './query.js';
import { compileRouter } from './router.js';
import { executeUpload, sendStoredObject } from './upload.js';
import { executeMultipart } from './multipart.js';
import type { AuthMode, Route, RouteInput, Service } from './types.js';

export const BODY_LIMIT = MiB;

type Entry =
  | { kind: 'route'; method: string; path: string; route: Route }
  | { kind: 'builtin'; method: string; path: string; answer(): Promise<HealthAnswer> | HealthAnswer };

export interface HandlerDeps {
  routes: readonly Route[];
  operations: Map<string, Operation>;
  gateway: Pick<GatewayClient, 'execute' | 'health'>;
  log: Logger;
  startedAt?: number;
  /** the composed schema bodies and free-form attributes are derived from (default: schema/supergraph.graphql) */
  schema?: GraphQLSchema;
  /** verifies presigned upload URLs and seals upload receipts (INTERNAL_SECRET) for raw-body routes */
  uploadSecret?: string;
  /** where raw-body routes store what they receive and raw routes read stored files from; required when a route has `upload` */
  objects?: ObjectStore;
  /** counts the per-endpoint limits of routes with `rateLimit` (endpoint-limits.ts); none: not enforced */
  limiter?: RateLimiter;
  /** TRUSTED_PROXIES: who the client is behind a load balancer (lib/client-address.ts); none: the socket peer */
  proxies?: ClientAddressResolver;
  /** CORS_ORIGINS: browser origins allowed for JWT and anonymous requests (lib/cors.ts) */
  corsOrigins?: readonly string[];
  /** PUBLIC_URL, listed in the OpenAPI document's servers */
  publicUrl?: string;
}

/** Which service's error shape a path gets when no route matched it. */
export function serviceForPath(path: string): Service {
  if (/^\/v1(\/|$)/.test(path)) return 'products';
  if (/^\/search(\/|$)/.test(path)) return 'search';
  if (/^\/(ai|identities|prompts|agents)(\/|$)/.test(path)) return 'ai';
  return 'platform';
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
}

const MISSING_CREDENTIALS: Record<Exclude<AuthMode, 'none'>, string> = {
  'jwt+platform': 'Authorization: Bearer <JWT> and X-Platform are required',
  apiKey: 'An API key is required: X-App-Id with X-Api-Key (or Authorization: Bearer <key>); a JWT is not an API key',
  'apiKey+jwt': 'An API key (X-App-Id, X-Api-Key) and a user JWT (Authorization: Bearer) are required',
};

/** `Bearer <header>.<payload>.<signature>`: a JWT, which names a user, never an app's API key. */
const BEARER_JWT = /^Bearer\s+[\w-]+\.[\w-]+\.[\w-]*$/i;

/**
 * Only "nothing at all" is refused here; whether the credentials are valid is the gateway's call.
 * On the API-key paths (products, search, AI) a JWT in Authorization is no key: without X-Api-Key
 * the answer is 401 saying a key is required (a platform JWT would otherwise reach the scope check
 * and read as a 403 for a key the caller never sent).
 */
export function credentialsPresent(mode: AuthMode, authorization: string | undefined, apiKey: string | undefined): boolean {
  if (mode === 'none') return true;
  if (mode === 'jwt+platform') return !!authorization;
  return !!apiKey || (!!authorization && !BEARER_JWT.test(authorization));
}

const JSON_TYPE = /^application\/(json|[\w.+-]+\+json)\s*(;|$)/i;

/** JSON:API's media type: answered to clients that ask for it (Accept), application/json otherwise. */
const JSON_API_TYPE = 'application/vnd.api+json';
const answerType = (req: IncomingMessage): Record<string, string> => (/\bapplication\/vnd\.api\+json\b/i.test(req.headers.accept ?? '') ? { 'content-type': JSON_API_TYPE } : {});

export function createRequestHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { gateway, operations } = deps;
  const startedAt = deps.startedAt ?? Date.now();
  for (const r of deps.routes) {
    const op = operations.get(r.operation);
    if (!op) throw new Error(`route ${r.method} ${r.path}: operation ${r.operation} not found in rest-bridge/operations/`);
    if (op.service !== r.service) throw new Error(`route ${r.method} ${r.path}: operation ${r.operation} lives in ${op.service}.graphql, not ${r.service}.graphql`);
    if (r.upload && (!deps.objects || !deps.uploadSecret || !r.path.includes('/:token'))) throw new Error(`route ${r.method} ${r.path}: an upload route needs a :token path parameter, an object store and the upload secret`);
    if (r.multipart && (!deps.objects || !deps.uploadSecret || !operations.has(r.multipart.grant.operation))) throw new Error(`route ${r.method} ${r.path}: a multipart route needs its grant operation ${r.multipart.grant.operation}, an object store and the upload secret`);
  }
  const schema = deps.schema ?? loadApiSchema();
  const derived = deriveRoutes(deps.routes, operations, schema);
  // built on first request: examples render every route (a few ms), which start-up need not wait for
  let openapi: Record<string, unknown> | undefined;
  const openapiDoc = () => (openapi ??= buildOpenApi(deps.routes, derived, { version: VERSION, serverUrl: deps.publicUrl, examples: { operations, schema } }));
  const entries: Entry[] = [
    ...deps.routes.map((route): Entry => ({ kind: 'route', method: route.method, path: route.path, route })),
    { kind: 'builtin', method: 'GET', path: '/health', answer: basicHealth },
    { kind: 'builtin', method: 'GET', path: '/health/ready', answer: () => readiness() },
    { kind: 'builtin', method: 'GET', path: '/health/detailed', answer: () => detailedHealth(gateway, startedAt) },
    { kind: 'builtin', method: 'GET', path: '/openapi.json', answer: () => ({ status: 200, body: openapiDoc() }) },
  ];
  const router = compileRouter(entries);

  return async (req, res) => {
    const began = performance.now();
    const incoming = header(req, 'x-request-id');
    const requestId = incoming && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', requestId);
    if (answerPreflight(req, res, deps.corsOrigins ?? [])) return;
    // until the gateway decides (it verifies the key against its allow-list), by the request's kind
    const origin = requestOrigin(req);
    if (origin) setCorsHeaders(res, origin, isKeyRequest(req) || originAllowedWithoutKey(req, origin, deps.corsOrigins ?? []));
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    const path = pathOf(req);
    const log = deps.log.child({ requestId });
    if (path === '/' || path.startsWith(DOCS_PATH)) {
      labelRoute(req, DOCS_PATH);
      if (await sendDocs(req, res, path)) return;
    }
    if (path.startsWith(DATA_ROOM_PATH)) {
      labelRoute(req, DATA_ROOM_PATH);
      if (await sendDataRoom(req, res, path)) return;
    }
    let service: Service = serviceForPath(path);
    /** the matched route's body attributes, for the pointers of errors naming them */
    let bodyOf: { attributes: string[]; inData: boolean } | undefined;

    const fail = (errors: RestError[], headers: Record<string, string> = {}) => {
      const documented = errors.map((e) => withDocumentedCode(service, e));
      const located = bodyOf ? documented.map((e) => (e.parameter ? { ...e, pointer: bodyPointer(e.parameter, bodyOf!.attributes, bodyOf!.inData) } : e)) : documented;
      const { status, body } = renderErrors(service, located);
      if (!res.headersSent) sendJson(res, status, withRequestId(body, requestId), { ...headers, ...answerType(req) });
      else res.end();
    };

    try {
      const m = router.match(method, path);
      if (m.kind === 'bad_path') return fail([restError('BAD_REQUEST', 'The path is not valid percent-encoding')]);
      if (m.kind === 'not_found') return fail([restError('ROUTE_NOT_FOUND', `No route for ${method} ${path}`)]);
      if (m.kind === 'method_not_allowed') {
        const first = m.entries[0];
        service = first.kind === 'route' ? first.route.service : service;
        const allow = m.allow.join(', ');
        if (method === 'OPTIONS') {
          res.writeHead(204, { allow: `${allow}, OPTIONS` });
          res.end();
          return;
        }
        return fail([restError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; allowed: ${allow}`)], { allow });
      }
      const entry = m.entry;
      labelRoute(req, entry.path);
      if (entry.kind === 'builtin') {
        req.resume();
        setCorsHeaders(res, origin, true); // health and the reference are public
        const a = await entry.answer();
        return sendJson(res, a.status, a.body);
      }

      const route = entry.route;
      const shape = derived.get(route)!;
      service = route.service;
      if (shape.body) bodyOf = { attributes: Object.keys(shape.body.fields), inData: !!route.body?.inData };
      if (!credentialsPresent(route.auth, header(req, 'authorization'), header(req, 'x-api-key'))) {
        req.resume();
        return fail([restError('UNAUTHENTICATED', MISSING_CREDENTIALS[route.auth as Exclude<AuthMode, 'none'>])]);
      }

      const limit = deps.limiter ? await checkEndpointLimit(deps.limiter, route, req) : { allowed: true, headers: {} as Record<string, string> };
      if (!limit.allowed) {
        req.resume();
        return fail([restError('RATE_LIMITED', limit.message)], limit.headers);
      }

      let attributes: Record<string, unknown> = {};
      if (route.upload || route.multipart) {
        // the raw body is read by executeUpload / executeMultipart, after the upload is granted
      } else if (shape.body) {
        const body = shape.body;
        const members = await readJsonApiBody(req, body.type, { inData: route.body?.inData, anyType: route.body?.anyType, attributes: new Set(Object.keys(body.fields)) });
        attributes = toGraphQLInput(members.attributes, body.fields, { linked: members.linked, readOnly: body.readOnly, extra: body.extra });
      } else {
        // bodies of body-less routes are ignored, but drained so the connection stays usable (a
        // request already read whole, a GET's, has nothing left: resuming it would cost a tick)
        if (!req.complete) req.resume();
      }
      const q = url.indexOf('?');
      checkPathParams(m.params); // the input policy (lib/input-policy.ts): NUL, lone surrogates
      checkQueryString(q >= 0 ? url.slice(q + 1) : '');
      const input: RouteInput = { params: m.params, query: parseQuery(q >= 0 ? url.slice(q + 1) : ''), attributes };

      const clientIp = deps.proxies ? deps.proxies.resolve(req.socket.remoteAddress, req.headers['x-forwarded-for']) : req.socket.remoteAddress;
      const caller = { headers: req.headers, clientIp, requestId };
      const outcome = route.upload
        ? await executeUpload(route, req, input, { gateway, operation: operations.get(route.operation)!, caller, uploadSecret: deps.uploadSecret!, objects: deps.objects! })
        : route.multipart
          ? await executeMultipart(route, req, input, { gateway, operations, caller, uploadSecret: deps.uploadSecret!, objects: deps.objects! })
          : await gateway.execute(operations.get(route.operation)!, route.variables(input), caller);
      // the gateway's CORS decision stands: no Access-Control-Allow-Origin from it, none from us
      if (outcome.kind !== 'unavailable' && !outcome.headers['access-control-allow-origin']) res.removeHeader('access-control-allow-origin');
      if (outcome.kind === 'unavailable') {
        log.warn('gateway unavailable', { route: route.operation, reason: outcome.reason });
        return fail([restError('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry shortly')], { 'retry-after': UNAVAILABLE_RETRY_AFTER_S });
      }
      if (outcome.kind === 'errors') {
        if (outcome.errors.some(isBridgeFault)) log.error('bridge operation rejected by the gateway', { route: route.operation, errors: outcome.errors });
        const errors = outcome.errors.map((e) => fromGraphQLError(e, outcome.httpStatus, route.query));
        if (errors.some((e) => e.status >= 500)) log.warn('gateway returned a server error', { route: route.operation, errors: outcome.errors });
        const wait: Record<string, string> = errors.some((e) => e.status === 503) ? { 'retry-after': UNAVAILABLE_RETRY_AFTER_S } : {};
        return fail(errors, { ...wait, ...retryAfter(outcome.errors), ...outcome.headers, ...limit.headers });
      }
      markFreeForm(outcome.data, shape.freeForm);
      if (route.raw) {
        const r = route.raw(outcome.data, input);
        if ('objectRef' in r) return await sendStoredObject(res, deps.objects, deps.uploadSecret, r, route.status, outcome.headers);
        res.writeHead(route.status, { ...outcome.headers, ...r.headers, 'content-type': r.contentType, 'content-length': String(r.body.length) });
        res.end(r.body);
        return;
      }
      const doc = linkDocument(route.result(outcome.data, input), shape.links, m.params);
      const status = route.statusOf?.(outcome.data) ?? route.status;
      // a created resource: where to GET it, its links.self
      const created = status === 201 && !Array.isArray(doc.data) ? (doc.data as { links?: { self?: unknown } }).links?.self : undefined;
      const location = typeof created === 'string' ? created : undefined;
      sendJson(res, status, doc, { ...outcome.headers, ...limit.headers, ...answerType(req), ...(location ? { location } : {}) });
    } catch (e) {
      if (e instanceof DomainError) return fail([fromDomainError(e)]);
      // A client that hung up mid-body is not a server fault: nothing to answer, nothing to alarm about.
      if (req.socket.destroyed) return log.debug('client went away', { method, path });
      log.error('request failed', { method, path, err: e });
      fail([INTERNAL]);
    } finally {
      log.debug('request', { method, path, status: res.statusCode, ms: Math.round(performance.now() - began) });
    }
  };
}

/** Read, size-check and parse a JSON:API body; errors are DomainErrors with the documented statuses. */
async function readJsonApiBody(req: IncomingMessage, type: string, opts: EnvelopeOptions): Promise<RequestMembers> {
  const contentType = header(req, 'content-type');
  if (contentType && !JSON_TYPE.test(contentType)) {
    req.resume();
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json (got ${contentType.split(';')[0]})`);
  }
  let raw: Buffer;
  try {
    raw = await readBody(req, BODY_LIMIT);
  } catch (e) {
    if (e instanceof BodyTooLargeError) throw new DomainError('PAYLOAD_TOO_LARGE', `JSON bodies are limited to ${BODY_LIMIT} bytes (1 MiB)`);
    throw e;
  }
  // the input policy (lib/input-policy.ts): depth, key counts, forbidden keys, NUL and lone surrogates;
  // a refused attribute is named as the client wrote it (`metadata.x`, not `data.attributes.metadata.x`)
  const body = raw.length ? parseCheckedJson(raw.toString('utf8'), attributeName) : undefined;
  return parseRequest(body, type, opts);
}

function attributeName(path: string): string {
  return path.startsWith('data.attributes.') ? path.slice('data.attributes.'.length) : path;
}

/** Every 503 says when to retry: the gateway's or a service's own value when given, else 1 s. */
const UNAVAILABLE_RETRY_AFTER_S = '1';

/** A service's own 429 (e.g. the search plan's searches per second) says when to retry in extensions.meta.retryAfterMs. */
function retryAfter(errors: readonly { extensions?: unknown }[]): Record<string, string> {
  for (const e of errors) {
    const ms = (e.extensions as { code?: unknown; meta?: { retryAfterMs?: unknown } } | undefined)?.meta?.retryAfterMs;
    if (typeof ms === 'number' && Number.isFinite(ms)) return { 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))) };
  }
  return {};
}
