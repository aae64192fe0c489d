// Traces: a REST request carrying a W3C traceparent yields one trace across the REST bridge, the
// gateway (a client span per subgraph fetch) and the subgraph, exported over OTLP/HTTP to a
// receiver this test runs (the test stack points OTEL_EXPORTER_OTLP_ENDPOINT at it). Also: the
// request id is on the response and in the trace.
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createTenant, rest, stack } from '../harness/client.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
  service: string;
}

const spans: OtlpSpan[] = [];
let receiver: Server;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: any[] };
        for (const rs of body.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a: any) => a.key === 'service.name')?.value?.stringValue ?? '';
          for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push({ ...s, service });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  const port = Number(new URL(stack().env.OTEL_EXPORTER_OTLP_ENDPOINT).port);
  await new Promise<void>((r) => receiver.listen(port, '127.0.0.1', r));
});

afterAll(() => new Promise((r) => receiver.close(r)));

async function spansOf(traceId: string, until: (s: OtlpSpan[]) => boolean): Promise<OtlpSpan[]> {
  for (let i = 0; i < 100; i++) {
    const mine = spans.filter((s) => s.traceId === traceId);
    if (until(mine)) return mine;
    await new Promise((r) => setTimeout(r, 100));
  }
  return spans.filter((s) => s.traceId === traceId);
}

test('traceparent propagates: REST bridge → gateway → subgraph fetch → subgraph, one trace', async () => {
  const t = await createTenant();
  const traceId = randomBytes(16).toString('hex');
  const callerSpan = randomBytes(8).toString('hex');
  const r = await rest('GET', '/v1/products?page[size]=1', { headers: { ...t.keyHeaders, traceparent: `00-${traceId}-${callerSpan}-01`, 'x-request-id': 'trace-test-1' } });
  expect(r.status).toBe(200);
  expect(r.headers.get('x-request-id')).toBe('trace-test-1');

  const mine = await spansOf(traceId, (s) => s.some((x) => x.service === 'catalog'));
  const byService = (name: string) => mine.filter((s) => s.service === name);
  const [bridge] = byService('rest-bridge');
  expect(bridge).toBeDefined();
  expect(bridge.parentSpanId).toBe(callerSpan);
  expect(bridge.name).toBe('rest-bridge GET /v1/products');
  expect(bridge.attributes).toEqual(expect.arrayContaining([{ key: 'request.id', value: { stringValue: 'trace-test-1' } }]));

  const gatewayServer = byService('gateway').find((s) => s.kind === 2);
  expect(gatewayServer).toBeDefined();
  expect(gatewayServer!.parentSpanId).toBe(bridge.spanId);
  expect(gatewayServer!.name).toBe('gateway POST graphql ListProducts');

  const fetch = byService('gateway').find((s) => s.kind === 3 && s.name === 'POST catalog');
  expect(fetch).toBeDefined();
  expect(fetch!.parentSpanId).toBe(gatewayServer!.spanId);

  const [subgraph] = byService('catalog');
  expect(subgraph).toBeDefined();
  expect(subgraph.parentSpanId).toBe(fetch!.spanId);
  expect(subgraph.kind).toBe(2);
});

test('a request without traceparent starts its own trace at the bridge', async () => {
  const r = await rest('GET', '/health/ready', { headers: { 'x-request-id': 'trace-test-2' } });
  expect(r.status).toBe(200);
  const found = await (async () => {
    for (let i = 0; i < 50; i++) {
      const s = spans.find((x) => x.service === 'rest-bridge' && x.attributes?.some((a) => a.key === 'request.id' && a.value.stringValue === 'trace-test-2'));
      if (s) return s;
      await new Promise((res) => setTimeout(res, 100));
    }
    return undefined;
  })();
  expect(found).toBeDefined();
  expect(found!.parentSpanId ?? '').toBe('');
});
