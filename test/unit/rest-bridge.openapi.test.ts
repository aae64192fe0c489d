import { loadApiSchema } from '../../rest-bridge/api-schema.js';
import { attrSchema, deriveRoutes } from '../../rest-bridge/derive.js';
import { buildOpenApi, errorStatuses, openApiPath } from '../../rest-bridge/openapi.js';
import { JSON_SHAPES } from '../../rest-bridge/json-shapes.js';
import { registeredErrors } from '../../lib/errors.js';
import { loadOperations } from '../../rest-bridge/operations.js';
import { ROUTES } from '../../rest-bridge/routes/index.js';

describe('rest-bridge OpenAPI document', () => {
  const operations = loadOperations();
  const schema = loadApiSchema();
  const doc = buildOpenApi(ROUTES, deriveRoutes(ROUTES, operations, schema), { version: '1.2.3', serverUrl: 'https://api.example.test', examples: { operations, schema } }) as any;
  const ops = () => Object.entries<any>(doc.paths).flatMap(([p, item]) => Object.entries<any>(item).map(([m, op]) => ({ where: `${m.toUpperCase()} ${p}`, op })));
  const body = (p: string, m: string) => doc.paths[p][m].requestBody.content['application/json'].schema.oneOf[0].properties.data.properties.attributes.properties;

  test('is OpenAPI 3.1 with the version', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.2.3');
  });

  test("names the gateway's live-update transports (SSE with Last-Event-ID, graphql-ws) and the registered-operations paths", () => {
    expect(doc.info.description).toMatch(/graphql-sse/);
    expect(doc.info.description).toMatch(/Last-Event-ID/);
    expect(doc.info.description).toMatch(/graphql-ws/);
    expect(doc.paths['/accounts/{url_id}/apps/{app_id}/operations']).toBeDefined();
  });

  test('states which key types a key route answers (x-key-types), from the fields it selects', () => {
    expect(doc.paths['/v1/webhooks'].get['x-key-types']).toEqual(['secret']);
    expect(doc.paths['/v1/webhooks'].get.description).toMatch(/secret key/);
    expect(doc.paths['/v1/products/{id}/pricing'].get['x-key-types']).toEqual(['secret']);
    expect(doc.paths['/v1/products'].get['x-key-types']).toEqual(['secret', 'publishable']);
    expect(doc.paths['/v1/products'].post['x-key-types']).toEqual(['secret']);
    expect(doc.paths['/platforms'].get['x-key-types']).toBeUndefined();
  });

  test('covers every route, with its operation name, params and success status', () => {
    for (const r of ROUTES) {
      const op = doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()];
      expect(op).toBeDefined();
      expect(op.operationId).toMatch(new RegExp(`^${r.operationId ?? r.operation}\\d*$`)); // a second path of one operation is numbered
      expect(op.tags).toEqual([r.service]);
      expect(op.responses[String(r.status)]).toBeDefined();
      const pathParams = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      expect(op.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name)).toEqual(pathParams);
      if (r.body) {
        // both shapes: the JSON:API document (its type fixed where the document names it) and a plain object of the attributes
        const [envelope, plain] = op.requestBody.content['application/json'].schema.oneOf;
        const type = envelope.properties.data.properties.type;
        if (r.body.inData || r.body.anyType) expect(type).toMatchObject({ type: 'string' });
        else expect(type.const).toBe(r.body.type);
        expect(plain).toMatchObject({ type: 'object', not: { required: ['data'] } });
      }
      else if (r.upload) expect(op.requestBody.content['application/octet-stream'].schema).toEqual({ type: 'string', format: 'binary' });
      else if (r.multipart) expect(op.requestBody.content['multipart/form-data'].schema.properties[r.multipart.file]).toMatchObject({ type: 'string', format: 'binary' });
      else expect(op.requestBody).toBeUndefined();
      if (r.auth === 'none') expect(op.security).toEqual([]);
      else expect(op.security.length).toBeGreaterThan(0);
    }
  });

  test('documents health and itself, without authentication', () => {
    for (const p of ['/health', '/health/ready', '/health/detailed', '/openapi.json']) expect(doc.paths[p].get.security).toEqual([]);
  });

  test('operation ids are unique and every referenced security scheme exists', () => {
    const ids: string[] = [];
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        ids.push(op.operationId);
        for (const req of op.security) for (const name of Object.keys(req)) expect(doc.components.securitySchemes[name]).toBeDefined();
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('attribute schemas', () => {
    expect(openApiPath('/accounts/:url_id/apps/:app_id/api_keys')).toBe('/accounts/{url_id}/apps/{app_id}/api_keys');
    expect(attrSchema({ kind: 'scalar', type: 'string', format: 'date-time' })).toEqual({ type: 'string', format: 'date-time' });
    expect(attrSchema({ kind: 'list', items: { kind: 'scalar', type: 'string' } })).toEqual({ type: 'array', items: { type: 'string' } });
    expect(attrSchema({ kind: 'object', fields: { amount: { graphql: 'amount', spec: { kind: 'scalar', type: 'integer' }, required: true } } })).toEqual({
      type: 'object',
      properties: { amount: { type: 'integer' } },
      required: ['amount'],
    });
  });

  test('request and response attributes come from the GraphQL input and output types', () => {
    const create = doc.paths['/v1/products'].post;
    const attrs = create.requestBody.content['application/json'].schema.oneOf[0].properties.data.properties.attributes;
    expect(create.requestBody.content['application/json'].schema.oneOf[1].properties).toEqual(attrs.properties);
    expect(Object.keys(attrs.properties).sort()).toEqual(
      ['attributes', 'bundle_items', 'bundle_pricing', 'category_ids', 'cost', 'description', 'dimensions', 'inventory', 'metadata', 'name', 'price', 'seo', 'short_description', 'sku', 'status', 'type', 'weight'],
    );
    expect(attrs.required).toEqual(['name', 'sku']);
    expect(attrs.properties.price.properties.compare_at).toEqual({ type: 'integer' });
    expect(attrs.properties.metadata.description).toMatch(/free-form/);
    const res = create.responses['201'].content['application/json'].schema.properties.data;
    expect(res.properties.type).toEqual({ const: 'products' });
    expect(res.properties.attributes.properties.price.properties.compare_at_formatted).toEqual({ type: ['string', 'null'] });
    expect(res.properties.attributes.properties.created_at).toMatchObject({ type: 'string', format: 'date-time' });
    expect(res.properties.attributes.properties.id).toBeUndefined();
    // a page: the resource is the page's items
    const list = doc.paths['/v1/products'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(list.type).toBe('array');
    expect(list.items.properties.attributes.properties.sku).toEqual({ type: 'string' });
  });

  test('servers: this origin first, then PUBLIC_URL', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' }), expect.objectContaining({ url: 'https://api.example.test' })]);
  });

  test('free-form values the service knows the shape of are typed (json-shapes.ts), JSONObject values are objects', () => {
    const docs = '/search/v1/indexes/{index_uid}/documents';
    expect(body(docs, 'post').documents).toMatchObject({ type: 'array', items: { type: 'object' } });
    expect(body(docs, 'delete').document_ids).toMatchObject({ type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } });
    const isFilter = (s: any) => expect(s.oneOf.map((x: any) => x.type)).toEqual(['string', 'array']);
    isFilter(body(`${docs}/delete-by-filter`, 'post').filter);
    isFilter(body('/search/v1/indexes/{index_uid}/search', 'post').filter);
    const queries = body('/search/v1/multi-search', 'post').queries;
    expect(queries).toMatchObject({ type: 'array', items: { type: 'object' } });
    isFilter(queries.items.properties.filter);
    expect(body('/v1/products', 'post').metadata).toMatchObject({ type: 'object' });
    // every coordinate of the table names a field or argument of the schema (a rename would silently untype it)
    for (const coordinate of Object.keys(JSON_SHAPES)) {
      const [, type, field, arg] = /^(\w+)\.(\w+)(?:\((\w+):\))?$/.exec(coordinate)!;
      const t = schema.getType(type) as any;
      const f = t?.getFields()[field];
      expect({ coordinate, found: !!(arg ? f?.args.some((a: any) => a.name === arg) : f) }).toEqual({ coordinate, found: true });
    }
  });

  test("the catalog's own PATCH, get-by-SKU and DELETE are documented", () => {
    expect(doc.paths['/v1/products/{id}'].patch.operationId).toBe('UpdateProduct');
    expect(doc.paths['/v1/products/{id}'].delete.operationId).toBe('DeleteProduct');
    expect(doc.paths['/v1/products/sku/{sku}'].get.operationId).toBe('GetProductBySku');
  });

  test('every operation has an example per success response and request body, rendered the way the route renders', () => {
    for (const { where, op } of ops()) {
      for (const [status, r] of Object.entries<any>(op.responses)) {
        if (!status.startsWith('2') || !r.content?.['application/json'] || where.includes(' /health') || where.endsWith('/openapi.json')) continue;
        expect({ where, status, example: r.content['application/json'].example !== undefined }).toEqual({ where, status, example: true });
      }
      const req = op.requestBody?.content?.['application/json'];
      if (req) expect({ where, example: req.example?.data !== undefined }).toEqual({ where, example: true });
    }
    const product = doc.paths['/v1/products/{id}'].get.responses['200'].content['application/json'].example;
    expect(product.data).toMatchObject({ type: 'products', id: expect.any(String), attributes: { sku: expect.any(String), price: { amount: expect.any(Number) } } });
  });

  test('error responses: each status the route can answer, in its service envelope, listing the codes with an example each', () => {
    for (const r of ROUTES) {
      const op = doc.paths[openApiPath(r.path)][r.method.toLowerCase()];
      for (const status of errorStatuses(r)) expect(op.responses[String(status)]).toEqual({ $ref: `#/components/responses/${r.service}_${status}` });
      expect(Object.keys(op.responses).some((s) => /X/.test(s))).toBe(false);
    }
    const notFound = doc.components.responses.products_404;
    expect(notFound.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/JsonApiErrors' });
    expect(notFound.content['application/json'].examples.PRODUCT_NOT_FOUND.value).toEqual({
      errors: [{ status: '404', code: 'PRODUCT_NOT_FOUND', title: registeredErrors().get('PRODUCT_NOT_FOUND')!.title, detail: expect.any(String) }],
      meta: { request_id: expect.any(String) },
    });
    const platform = doc.components.responses.platform_401.content['application/json'];
    expect(platform.schema).toEqual({ $ref: '#/components/schemas/PlatformError' });
    expect(platform.examples.UNAUTHENTICATED.value).toMatchObject({ error: 'unauthenticated', status: 401, request_id: expect.any(String) });
    for (const ref of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(\w+)\/(\w+)"/g)) expect(doc.components[ref[1]][ref[2]]).toBeDefined();
  });
});
