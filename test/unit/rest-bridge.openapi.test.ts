import { loadApiSchema } from '../../rest-bridge/api-schema.js';
import { attrSchema, deriveRoutes } from '../../rest-bridge/derive.js';
import { buildOpenApi, openApiPath } from '../../rest-bridge/openapi.js';
import { loadOperations } from '../../rest-bridge/operations.js';
import { ROUTES } from '../../rest-bridge/routes/index.js';

describe('rest-bridge OpenAPI document', () => {
  const doc = buildOpenApi(ROUTES, deriveRoutes(ROUTES, loadOperations(), loadApiSchema()), { version: '1.2.3' }) as any;

  test('is OpenAPI 3.1 with the version', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.2.3');
  });

  test('covers every route, with its operation name, params and success status', () => {
    for (const r of ROUTES) {
      const op = doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()];
      expect(op).toBeDefined();
      expect(op.operationId).toMatch(new RegExp(`^${r.operation}\\d*$`)); // a second path of one operation is numbered
      expect(op.tags).toEqual([r.service]);
      expect(op.responses[String(r.status)]).toBeDefined();
      const pathParams = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      expect(op.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name)).toEqual(pathParams);
      if (r.body) expect(op.requestBody.content['application/json'].schema.properties.data.properties.type.const).toBe(r.body.type);
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
    const attrs = create.requestBody.content['application/json'].schema.properties.data.properties.attributes;
    expect(Object.keys(attrs.properties).sort()).toEqual(
      ['attributes', 'bundle_items', 'bundle_pricing', 'category_ids', 'cost', 'description', 'dimensions', 'inventory', 'metadata', 'name', 'price', 'seo', 'short_description', 'sku', 'status', 'type', 'weight'],
    );
    expect(attrs.required).toEqual(['name', 'sku']);
    expect(attrs.properties.price.properties.compare_at).toEqual({ type: 'integer' });
    expect(attrs.properties.metadata.description).toMatch(/free-form/);
    const res = create.responses['201'].content['application/json'].schema.properties.data;
    expect(res.properties.type).toEqual({ const: 'products' });
    expect(res.properties.attributes.properties.price.properties.compare_at_formatted).toEqual({ type: 'string' });
    expect(res.properties.attributes.properties.created_at).toMatchObject({ type: 'string', format: 'date-time' });
    expect(res.properties.attributes.properties.id).toBeUndefined();
    // a page: the resource is the page's items
    const list = doc.paths['/v1/products'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(list.type).toBe('array');
    expect(list.items.properties.attributes.properties.sku).toEqual({ type: 'string' });
  });
});
