// OpenAPI 3.1 generated from the route table (served at GET /openapi.json), so the document can
// never list a path the bridge does not serve, or miss one it does.
// Request and response attributes are derived from the GraphQL input and output types (derive.ts).
import { fieldsSchema, type DerivedRoute, type JsonSchema } from './derive.js';
import type { AuthMode, Route, Service } from './types.js';

type Schema = JsonSchema;

const ERROR_SCHEMA: Record<Service, string> = {
  platform: '#/components/schemas/PlatformError',
  products: '#/components/schemas/JsonApiErrors',
  search: '#/components/schemas/JsonApiErrors',
  ai: '#/components/schemas/AiError',
};

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

function documentSchema(type: string, list: boolean, attributes: Schema): Schema {
  const res = {
    type: 'object',
    required: ['id', 'type', 'attributes'],
    properties: { id: { type: 'string' }, type: { const: type }, attributes },
  };
  return {
    type: 'object',
    required: ['data'],
    properties: { data: list ? { type: 'array', items: res } : res, meta: { type: 'object' } },
  };
}

function operationOf(route: Route, derived: DerivedRoute): Schema {
  const params = [...route.path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  const query = (route.query ?? []).map((q) => ({ name: q.name, in: 'query', required: false, schema: { type: q.type }, ...(q.description ? { description: q.description } : {}) }));
  const error = { description: 'error', content: { 'application/json': { schema: { $ref: ERROR_SCHEMA[route.service] } } } };
  const op: Schema = {
    operationId: route.operation,
    summary: route.summary,
    tags: [route.service],
    security: SECURITY[route.auth],
    parameters: [...params, ...query],
    responses: {
      [String(route.status)]: { description: 'success', content: { 'application/json': { schema: documentSchema(route.responseType, !!route.list, derived.attributes) } } },
      ...(route.statusOf ? { '200': { description: 'already there (idempotent repeat)', content: { 'application/json': { schema: documentSchema(route.responseType, false, derived.attributes) } } } } : {}),
      '4XX': error,
      '5XX': error,
    },
  };
  if (route.upload) {
    op.requestBody = {
      required: true,
      description: `the raw file bytes, at most ${route.upload.maxBytes} bytes (or the limit signed into the URL), one of ${route.upload.types.join(', ')} (decided from the first bytes: 415 otherwise)`,
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    };
  }
  if (route.multipart) {
    const m = route.multipart;
    const properties: Schema = { [m.file]: { type: 'string', format: 'binary', description: `at most ${m.maxBytes} bytes, one of ${m.types.join(', ')} (decided from the first bytes)` } };
    for (const [name, f] of Object.entries(m.fields)) properties[name] = { type: f.type, ...(f.description ? { description: f.description } : {}) };
    op.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', required: m.optionalFile ? [] : [m.file], properties } } } };
  }
  if (route.raw) {
    (op.responses as Schema)[String(route.status)] = { description: 'the file', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } };
  }
  if (derived.body) {
    const attributes = fieldsSchema(derived.body.fields);
    op.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['data'],
            properties: {
              data: route.body?.inData
                ? { ...attributes, properties: { type: { const: derived.body.type }, ...(attributes.properties as Record<string, unknown>) } }
                : { type: 'object', required: ['type'], properties: { type: { const: derived.body.type }, attributes } },
            },
          },
        },
      },
    };
  }
  return op;
}

const health = (summary: string, statuses: string[]): Schema => ({
  operationId: summary.replace(/\W+(\w)/g, (_m, c: string) => c.toUpperCase()).replace(/\W/g, ''),
  summary,
  tags: ['health'],
  security: [],
  responses: Object.fromEntries(statuses.map((s) => [s, { description: s === '200' ? 'healthy' : 'unhealthy', content: { 'application/json': { schema: { type: 'object' } } } }])),
});

export function buildOpenApi(routes: readonly Route[], derived: ReadonlyMap<Route, DerivedRoute>, opts: { version: string; serverUrl?: string }): Schema {
  const paths: Record<string, Record<string, Schema>> = {
    '/health': { get: health('Basic health', ['200']) },
    '/health/ready': { get: health('Readiness of the gateway and every subgraph database', ['200', '503']) },
    '/health/detailed': { get: health('Component statuses with latencies', ['200', '503']) },
    '/openapi.json': { get: health('This document', ['200']) },
  };
  // a GraphQL operation served on two paths (e.g. both render paths of a prompt) gets a numbered
  // operationId on its later paths: operationIds are unique in an OpenAPI document
  const used = new Map<string, number>();
  for (const r of routes) {
    const p = openApiPath(r.path);
    paths[p] ??= {};
    const op = operationOf(r, derived.get(r)!);
    const n = (used.get(r.operation) ?? 0) + 1;
    used.set(r.operation, n);
    if (n > 1) op.operationId = `${r.operation}${n}`;
    paths[p][r.method.toLowerCase()] = op;
  }
  const errorItem = {
    type: 'object',
    required: ['status', 'code', 'title'],
    properties: {
      status: { type: 'string' },
      code: { type: 'string' },
      title: { type: 'string' },
      detail: { type: 'string' },
      source: { type: 'object', properties: { parameter: { type: 'string' } } },
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Platform, products, search and AI REST API', version: opts.version },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    tags: [{ name: 'platform' }, { name: 'products' }, { name: 'search' }, { name: 'ai' }, { name: 'health' }],
    paths,
    components: {
      securitySchemes: {
        bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        bearerApiKey: { type: 'http', scheme: 'bearer', description: 'an API key as the bearer token' },
        platformHeader: { type: 'apiKey', in: 'header', name: 'X-Platform' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        appId: { type: 'apiKey', in: 'header', name: 'X-App-Id' },
      },
      schemas: {
        Resource: {
          type: 'object',
          required: ['id', 'type', 'attributes'],
          properties: { id: { type: 'string' }, type: { type: 'string' }, attributes: { type: 'object' } },
        },
        PlatformError: {
          type: 'object',
          required: ['error', 'message', 'status'],
          properties: { error: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' }, parameter: { type: 'string' } },
        },
        JsonApiErrors: { type: 'object', required: ['errors'], properties: { errors: { type: 'array', items: errorItem } } },
        AiError: {
          oneOf: [
            { $ref: '#/components/schemas/JsonApiErrors' },
            {
              type: 'object',
              required: ['error'],
              description: 'usr-not-registered only',
              properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } } } },
            },
          ],
        },
      },
    },
  };
}
