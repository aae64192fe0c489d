// Health and OpenAPI on the REST base address: no authentication.
import { ROUTES } from '../../rest-bridge/routes/index.js';
import { rest } from '../harness/client.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe('health', () => {
  test('GET /health → status, service, version, ISO timestamp', async () => {
    const before = Date.now();
    const r = await rest('GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', service: expect.any(String), version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(r.body.service.length).toBeGreaterThan(0);
    expect(r.body.timestamp).toMatch(ISO);
    expect(Date.parse(r.body.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(r.body.timestamp)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  test('GET /health/ready → 200', async () => {
    const r = await rest('GET', '/health/ready');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', timestamp: expect.stringMatching(ISO) });
  });

  test('GET /health/detailed lists the gateway and the four subgraphs, all ok', async () => {
    const r = await rest('GET', '/health/detailed');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    const c = r.body.components;
    for (const name of ['gateway', 'platform', 'ai', 'catalog', 'search']) {
      expect(c[name]).toMatchObject({ status: 'ok', latency_ms: expect.any(Number) });
    }
  });

  test('health needs no credentials and ignores bad ones', async () => {
    const r = await rest('GET', '/health', { headers: { authorization: 'Bearer garbage', 'x-app-id': 'app_x', 'x-api-key': 'nope' } });
    expect(r.status).toBe(200);
  });
});

describe('GET /openapi.json', () => {
  test('is OpenAPI 3.1 and documents every route of the table with its operation', async () => {
    const r = await rest('GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toMatch(/^3\.1\./);
    expect(r.body.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(ROUTES.length).toBeGreaterThan(0);
    for (const route of ROUTES) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const op = r.body.paths?.[path]?.[route.method.toLowerCase()];
      // an operation served on two paths is numbered on its later ones (operationIds are unique)
      expect({ route: `${route.method} ${route.path}`, operationId: op?.operationId?.replace(/\d+$/, '') }).toEqual({ route: `${route.method} ${route.path}`, operationId: (route.operationId ?? route.operation).replace(/\d+$/, '') });
      expect(op.responses[String(route.status)]).toBeDefined();
      for (const name of [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1])) {
        expect(op.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name, in: 'path', required: true })]));
      }
      if (route.body) {
        // both shapes: the JSON:API document (its type fixed unless the document names none) and a plain object
        const [envelope, plain] = op.requestBody.content['application/json'].schema.oneOf;
        const type = envelope.properties.data.properties.type;
        if (route.body.inData || route.body.anyType) expect(type.type).toBe('string');
        else expect(type).toEqual({ const: route.body.type });
        expect(plain.type).toBe('object');
      }
      if (route.auth !== 'none') expect(op.security.length).toBeGreaterThan(0);
    }
    for (const p of ['/health', '/health/ready', '/health/detailed']) expect(r.body.paths[p]?.get).toBeDefined();
  });
});
