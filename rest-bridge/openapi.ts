// OpenAPI 3.1 generated from the route table (served at GET /openapi.json, rendered at GET /docs), so
// the document can never list a path the bridge does not serve, or miss one it does. Nothing in it
// is written per route: request and response attributes are derived from the GraphQL input and
// output types (derive.ts), the error responses from the error-code registry and the service's
// error renderer (errors.ts), the examples from the route's own rendering of sample data
// (openapi-examples.ts).
import type { GraphQLSchema } from 'graphql';
import { registeredErrors } from '../lib/errors.js';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../lib/extra-attributes.js';
import { fieldsSchema, type DerivedRoute, type JsonSchema } from './derive.js';
import { codeFor, renderErrors, restError, withRequestId } from './errors.js';
import { exampleOf, renderedResponse } from './openapi-examples.js';
import { loadFieldAccess, routeKeyTypes, selectedPaths } from './key-types.js';
import type { Operation } from './operations.js';
import type { AuthMode, Route, Service } from './types.js';

type Schema = JsonSchema;

const ERROR_SCHEMA: Record<Service, string> = {
  platform: '#/components/schemas/PlatformError',
  products: '#/components/schemas/JsonApiErrors',
  search: '#/components/schemas/JsonApiErrors',
  ai: '#/components/schemas/AiError',
};

/** The subgraph whose registered codes a service's routes answer (besides the kernel's). */
const OWNER: Record<Service, string> = { platform: 'platform', products: 'catalog', search: 'search', ai: 'ai' };

const SECURITY: Record<AuthMode, Record<string, string[]>[]> = {
  'jwt+platform': [{ bearerJwt: [], platformHeader: [] }],
  apiKey: [
    { appId: [], apiKeyHeader: [] },
    { appId: [], bearerApiKey: [] },
  ],
  'apiKey+jwt': [{ appId: [], apiKeyHeader: [], bearerJwt: [] }],
  none: [],
};

/** `/accounts/:url_id/apps` → `/accounts/{url_id}/apps` */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}

const pathParamsOf = (path: string) => [...path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]);

/**
 * The error statuses a route can answer, from what it does: every route can fail (500) or find a
 * dependency down (503); credentials bring 401, 403 and 429; a body brings 400, 409 (data.type),
 * 413, 415 and 422; path parameters 404; writes 409 (conflicts); query parameters 400.
 */
export function errorStatuses(route: Route): number[] {
  const s = new Set([500, 503]);
  if (route.auth !== 'none') [401, 403, 429].forEach((x) => s.add(x));
  if (route.rateLimit) s.add(429);
  if (route.body || route.multipart || route.upload) [400, 409, 413, 415, 422].forEach((x) => s.add(x));
  if (pathParamsOf(route.path).length) s.add(404);
  if (route.method !== 'GET') s.add(409);
  if (route.query?.length) s.add(400);
  if (route.upload) [403, 404, 410].forEach((x) => s.add(x));
  return [...s].sort((a, b) => a - b);
}

/** The query cost headers (docs/cost.md): every answer of a route that calls the gateway; limit, remaining and reset for API-key callers. */
const COST_HEADERS: Record<string, Schema> = {
  'X-Cost-Requested': { description: "the call's estimated query cost (the supergraph's @cost/@listSize), charged to the key's budget", schema: { type: 'integer' } },
  'X-Cost-Limit': { description: "the key's cost budget per minute (by its account's plan; API keys only)", schema: { type: 'integer' } },
  'X-Cost-Remaining': { description: 'units left in the current minute after this call (API keys only); spent: 429 with Retry-After', schema: { type: 'integer' } },
  'X-Cost-Reset': { description: 'seconds until the budget starts again (API keys only)', schema: { type: 'integer' } },
};
const COST_HEADER_REFS = Object.fromEntries(Object.keys(COST_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]));

const REQUEST_META = { type: 'object', properties: { request_id: { type: 'string', description: 'the X-Request-Id of the request' } } };

/** `products_404`: the name of a service's error response for one status in components.responses. */
const errorResponseName = (service: Service, status: number) => `${service}_${status}`;

/** One response per service and status some route answers: the codes it may carry, each with its rendered body as an example. */
function errorResponses(used: ReadonlyMap<Service, ReadonlySet<number>>): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const all = [...registeredErrors()].sort(([a], [b]) => a.localeCompare(b));
  for (const [service, statuses] of used) {
    for (const status of [...statuses].sort((a, b) => a - b)) {
      const codes = all.filter(([, d]) => d.status === status && (d.owner === 'kernel' || d.owner === OWNER[service]));
      const examples: Record<string, Schema> = {};
      for (const [code, d] of codes) examples[code] = { summary: d.title, value: withRequestId(renderErrors(service, [restError(code, d.title)]).body, '0b5e2c7a-4f1d-4e8a-9c3b-7d2f6a1e5b90') };
      const listed = codes.map(([code, d]) => `\`${codeFor(service, code)}\` (${d.title})`).join(', ');
      out[errorResponseName(service, status)] = {
        description: codes.length ? `One of: ${listed}` : `HTTP ${status}`,
        content: { 'application/json': { schema: { $ref: ERROR_SCHEMA[service] }, ...(codes.length ? { examples } : {}) } },
      };
    }
  }
  return out;
}

const IDENTIFIER: Schema = { type: 'object', required: ['type', 'id'], properties: { type: { type: 'string' }, id: { type: 'string' } } };

/** JSON:API relationships (resource-links.ts): `data` with the related type and id, and/or `links.related`. */
const RELATIONSHIPS: Schema = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: {
      data: {
        oneOf: [
          { type: 'null' },
          IDENTIFIER,
          { type: 'array', items: IDENTIFIER },
        ],
      },
      links: { type: 'object', properties: { related: { type: 'string', description: 'where the related resource is read' } } },
    },
  },
};

const RESOURCE_LINKS: Schema = { type: 'object', properties: { self: { type: 'string', description: 'where this resource is read (GET)' } } };

function documentSchema(type: string, list: boolean, attributes: Schema): Schema {
  const res = {
    type: 'object',
    required: ['id', 'type', 'attributes'],
    properties: { id: { type: 'string' }, type: { const: type }, attributes, relationships: RELATIONSHIPS, links: RESOURCE_LINKS },
  };
  return {
    type: 'object',
    required: ['data'],
    properties: { data: list ? { type: 'array', items: res } : res, meta: { type: 'object', additionalProperties: true } },
  };
}

/** What the examples are rendered from; without it the document has schema-read examples only. */
export interface ExampleSources {
  operations: ReadonlyMap<string, Operation>;
  schema: GraphQLSchema;
}

function operationOf(route: Route, derived: DerivedRoute, sources: ExampleSources | undefined): Schema {
  const params = pathParamsOf(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' }, example: `${name}_example` }));
  const query = (route.query ?? []).map((q) => ({ name: q.name, in: 'query', required: false, schema: { type: q.type }, ...(q.description ? { description: q.description } : {}) }));
  // the document as the route renders it (openapi-examples.ts); the derived attributes in a plain document otherwise
  const op = sources?.operations.get(route.operation);
  const rendered = op && sources ? renderedResponse(route, op.source, sources.schema, derived) : undefined;
  const success = rendered?.schema ?? documentSchema(route.responseType, !!route.list, derived.attributes);
  const json = { 'application/json': { schema: success, example: rendered ? rendered.example : exampleOf(success) } };
  const headers = route.auth !== 'none' ? { headers: COST_HEADER_REFS } : {};
  const responses: Record<string, Schema> = {
    [String(route.status)]: { description: 'success', ...headers, content: json },
    ...(route.statusOf ? { '200': { description: 'already there (idempotent repeat)', ...headers, content: json } } : {}),
  };
  for (const status of errorStatuses(route)) responses[String(status)] ??= { $ref: `#/components/responses/${errorResponseName(route.service, status)}` };
  const out: Schema = {
    operationId: route.operationId ?? route.operation,
    summary: route.summary,
    tags: [route.service],
    security: SECURITY[route.auth],
    parameters: [...params, ...query],
    responses,
  };
  // the key types a key route answers, from the roles of the fields it selects (key-types.ts)
  if (op && sources && route.auth !== 'jwt+platform' && route.auth !== 'none') {
    const keyTypes = routeKeyTypes(route, selectedPaths(sources.schema, op.source, loadFieldAccess()));
    out['x-key-types'] = keyTypes;
    if (!keyTypes.includes('publishable')) out.description = 'Needs a secret key: a publishable key (which lives in browsers) is refused with 403.';
  }
  if (route.upload) {
    out.requestBody = {
      required: true,
      description: `the raw file bytes, at most ${route.upload.maxBytes} bytes (or the limit signed into the URL), one of ${route.upload.types.join(', ')} (decided from the first bytes: 415 otherwise)`,
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    };
  }
  if (route.multipart) {
    const m = route.multipart;
    const properties: Schema = { [m.file]: { type: 'string', format: 'binary', description: `at most ${m.maxBytes} bytes, one of ${m.types.join(', ')} (decided from the first bytes)` } };
    for (const [name, f] of Object.entries(m.fields)) properties[name] = { type: f.type, ...(f.description ? { description: f.description } : {}) };
    out.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', required: m.optionalFile ? [] : [m.file], properties } } } };
  }
  if (route.raw) {
    responses[String(route.status)] = { description: 'the file', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } };
  }
  if (derived.body) {
    const attributes = withExtraAttributes(fieldsSchema(derived.body.fields), derived.body.extra);
    const type = derived.body.type;
    const attrExample = exampleOf(attributes) as Record<string, unknown>;
    const inData = !!route.body?.inData;
    // the document names no request type for action bodies: any data.type is taken there
    const anyType = inData || !!route.body?.anyType;
    const typeSchema = anyType ? { type: 'string', description: `any type (the document names none); ${type} for instance` } : { const: type };
    const envelope = {
      title: 'JSON:API document',
      type: 'object',
      required: ['data'],
      properties: {
        data: inData
          ? { ...attributes, properties: { type: typeSchema, ...(attributes.properties as Record<string, unknown>) } }
          : { type: 'object', ...(anyType ? {} : { required: ['type'] }), properties: { type: typeSchema, attributes } },
      },
    };
    const plain = { ...attributes, title: 'plain object of the attributes', not: { properties: { data: {} }, required: ['data'] } };
    out.requestBody = {
      required: true,
      description: derived.body.extra
        ? 'Either shape is taken: a JSON:API document, or a plain JSON object of the attributes (no `data` member). Attributes beyond the listed ones are kept as given and answered back (the document says this resource has fields it does not show).'
        : 'Either shape is taken: a JSON:API document, or a plain JSON object of the attributes (no `data` member). An attribute the endpoint does not take → 422 naming it.',
      content: {
        'application/json': {
          schema: { oneOf: [envelope, plain] },
          example: { data: inData ? { type, ...attrExample } : { type, attributes: attrExample } },
        },
      },
    };
  }
  return out;
}

const health = (summary: string, statuses: string[]): Schema => ({
  operationId: summary.replace(/\W+(\w)/g, (_m, c: string) => c.toUpperCase()).replace(/\W/g, ''),
  summary,
  tags: ['health'],
  security: [],
  responses: Object.fromEntries(
    statuses.map((s) => [s, { description: s === '200' ? 'healthy' : 'unhealthy', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } }]),
  ),
});

export interface OpenApiOptions {
  version: string;
  /** PUBLIC_URL: listed in `servers` after the document's own origin */
  serverUrl?: string;
  /** for examples rendered by each route (see ExampleSources) */
  examples?: ExampleSources;
}

export function buildOpenApi(routes: readonly Route[], derived: ReadonlyMap<Route, DerivedRoute>, opts: OpenApiOptions): Schema {
  const paths: Record<string, Record<string, Schema>> = {
    '/health': { get: health('Basic health', ['200']) },
    '/health/ready': { get: health('Readiness of this process (503 while it shuts down); dependencies are in /health/detailed', ['200', '503']) },
    '/health/detailed': { get: health('Component statuses with latencies', ['200', '503']) },
    '/openapi.json': { get: health('This document', ['200']) },
  };
  // a GraphQL operation served on two paths (e.g. both render paths of a prompt) gets a numbered
  // operationId on its later paths: operationIds are unique in an OpenAPI document
  const used = new Map<string, number>();
  const errorsUsed = new Map<Service, Set<number>>();
  for (const r of routes) {
    const p = openApiPath(r.path);
    paths[p] ??= {};
    const op = operationOf(r, derived.get(r)!, opts.examples);
    const id = r.operationId ?? r.operation;
    const n = (used.get(id) ?? 0) + 1;
    used.set(id, n);
    if (n > 1) op.operationId = `${id}${n}`;
    paths[p][r.method.toLowerCase()] = op;
    const statuses = errorsUsed.get(r.service) ?? new Set<number>();
    errorStatuses(r).forEach((s) => statuses.add(s));
    errorsUsed.set(r.service, statuses);
  }
  const errorItem = {
    type: 'object',
    required: ['status', 'code', 'title'],
    properties: {
      status: { type: 'string', description: 'the HTTP status, as a string' },
      code: { type: 'string' },
      title: { type: 'string' },
      detail: { type: 'string' },
      source: {
        type: 'object',
        properties: {
          parameter: { type: 'string', description: 'the offending parameter or attribute' },
          pointer: { type: 'string', description: 'JSON pointer to the offending body member (/data/attributes/price/amount)' },
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Platform, products, search and AI REST API',
      version: opts.version,
      description:
        'JSON:API over the federated GraphQL API. Every response carries `X-Request-Id` (sent back as given, or generated); quote it when reporting a problem.\n\n' +
        "**Query cost.** Every call is charged its estimated query cost (the GraphQL operation behind the route, weighed by the supergraph's `@cost`/`@listSize`) to the API key's budget per minute, by the account's plan; answers carry `X-Cost-Requested`, `X-Cost-Limit`, `X-Cost-Remaining` and `X-Cost-Reset`, and a spent budget answers 429 (`RATE_LIMITED`; `rate_limit_exceeded` in the platform shape) with `Retry-After`.\n\n" +
        "**Live updates** are GraphQL subscriptions on the gateway's `/graphql` (not on these paths): graphql-ws over a WebSocket, or GraphQL over Server-Sent Events (the graphql-sse protocol, `Accept: text/event-stream`), with the same keys and the same origin rules as these paths; every event has an id, and a client that reconnects with `Last-Event-ID` receives what it missed within the retention window (docs/subscriptions.md). **Registered operations**: an app's trusted operations are managed under `/accounts/{url_id}/apps/{app_id}/operations` below and sent to the gateway by id.\n\n" +
        '**Authorize** asks for five schemes; fill two: `bearerJwt` and `platformHeader` for the platform paths (a JWT from `npm run -s mint-token`, the platform code), or `appId` and `apiKeyHeader` for products, search and AI (`npm run seed` prints both). AI identity paths add the user\'s JWT in `bearerJwt`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'this server' }, ...(opts.serverUrl && opts.serverUrl !== '/' ? [{ url: opts.serverUrl, description: 'PUBLIC_URL' }] : [])],
    tags: [
      { name: 'platform', description: 'Platforms, accounts, apps, keys, blocks, billing and reporting (JWT + X-Platform)' },
      { name: 'products', description: 'Catalog: products, variants, categories, collections, pricing, inventory, images (API key)' },
      { name: 'search', description: 'Search indexes, documents, search, tasks and analytics (API key)' },
      { name: 'ai', description: 'AI: text, images, custom models, prompts, agents (API key)' },
      { name: 'health', description: 'Liveness, readiness and this document (no authentication)' },
    ],
    paths,
    components: {
      securitySchemes: {
        // the Authorize dialog shows these: each says which pair it belongs to
        bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Platform paths: fill this (a JWT, `npm run -s mint-token`) AND platformHeader. AI identity paths: the user\'s JWT, beside appId and apiKeyHeader.' },
        bearerApiKey: { type: 'http', scheme: 'bearer', description: 'Alternative to apiKeyHeader (an API key as the bearer token, with appId); leave empty when apiKeyHeader is filled.' },
        platformHeader: { type: 'apiKey', in: 'header', name: 'X-Platform', description: 'Platform paths: the platform code, with bearerJwt.' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'Products, search and AI: fill this (sk_… or pk_…, printed by `npm run seed`) AND appId.' },
        appId: { type: 'apiKey', in: 'header', name: 'X-App-Id', description: 'Products, search and AI: the app id (app_…), with apiKeyHeader.' },
      },
      responses: errorResponses(errorsUsed),
      headers: COST_HEADERS,
      schemas: {
        PlatformError: {
          type: 'object',
          required: ['error', 'message', 'status'],
          properties: {
            error: { type: 'string', description: 'lower_snake code' },
            message: { type: 'string' },
            status: { type: 'integer' },
            parameter: { type: 'string' },
            request_id: { type: 'string', description: 'the X-Request-Id of the request' },
          },
        },
        JsonApiErrors: { type: 'object', required: ['errors'], properties: { errors: { type: 'array', items: errorItem }, meta: REQUEST_META } },
        AiError: {
          oneOf: [
            { $ref: '#/components/schemas/JsonApiErrors' },
            {
              type: 'object',
              required: ['error'],
              description: 'usr-not-registered only',
              properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } } }, meta: REQUEST_META },
            },
          ],
        },
      },
    },
  };
}

/** A body that keeps attributes as given (lib/extra-attributes.ts) takes any further attribute. */
function withExtraAttributes(attributes: Schema, extra: string | undefined): Schema {
  if (!extra) return attributes;
  return { ...attributes, additionalProperties: { description: EXTRA_ATTRIBUTES_DESCRIPTION } };
}
