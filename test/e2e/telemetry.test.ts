// Traces: a REST request carrying a W3C traceparent yields one trace across the REST bridge, the
// gateway (a client span per subgraph fetch) and the subgraph, exported over OTLP/HTTP to the run's
// receiver (test/harness/otlp-receiver.mjs; the test stack's OTEL_EXPORTER_OTLP_ENDPOINT). The
// request id is on the response and on the spans.
import { randomBytes } from 'node:crypto';
import { createTenant, rest, stack } from '../harness/client.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: { stringValue?: string } }[];
  service: string;
}

/** The receiver's spans for `query`, asked until `until` holds (spans are exported in batches). */
async function spans(query: string, until: (s: OtlpSpan[]) => boolean): Promise<OtlpSpan[]> {
  let found: OtlpSpan[] = [];
  for (let i = 0; i < 100; i++) {
    found = (await (await fetch(`${stack().env.OTEL_EXPORTER_OTLP_ENDPOINT}/spans?${query}`)).json()) as OtlpSpan[];
    if (until(found)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return found;
}

const SERVER = 2;
const CLIENT = 3;

test('traceparent propagates: REST bridge → gateway → subgraph fetch → subgraph, one trace', async () => {
  const t = await createTenant();
  const traceId = randomBytes(16).toString('hex');
  const callerSpan = randomBytes(8).toString('hex');
  const r = await rest('GET', '/v1/products?page[size]=1', { headers: { ...t.keyHeaders, traceparent: `00-${traceId}-${callerSpan}-01`, 'x-request-id': 'trace-test-1' } });
  expect(r.status).toBe(200);
  expect(r.headers.get('x-request-id')).toBe('trace-test-1');

  const mine = await spans(`trace=${traceId}`, (s) => ['rest-bridge', 'gateway', 'catalog'].every((n) => s.some((x) => x.service === n && x.kind === SERVER)));
  const byService = (name: string) => mine.filter((s) => s.service === name);
  const [bridge] = byService('rest-bridge');
  expect(bridge).toBeDefined();
  expect(bridge.parentSpanId).toBe(callerSpan);
  expect(bridge.name).toBe('rest-bridge GET /v1/products');
  expect(bridge.attributes).toEqual(expect.arrayContaining([{ key: 'request.id', value: { stringValue: 'trace-test-1' } }]));

  const gatewayServer = byService('gateway').find((s) => s.kind === SERVER);
  expect(gatewayServer).toBeDefined();
  expect(gatewayServer!.parentSpanId).toBe(bridge.spanId);
  expect(gatewayServer!.name).toBe('gateway POST graphql ListProducts');

  const fetchSpan = byService('gateway').find((s) => s.kind === CLIENT && s.name === 'POST catalog');
  expect(fetchSpan).toBeDefined();
  expect(fetchSpan!.parentSpanId).toBe(gatewayServer!.spanId);

  const subgraph = byService('catalog').find((s) => s.kind === SERVER);
  expect(subgraph).toBeDefined();
  expect(subgraph!.parentSpanId).toBe(fetchSpan!.spanId);
});

test('a request without traceparent starts its own trace at the bridge', async () => {
  const r = await rest('GET', '/health/ready', { headers: { 'x-request-id': 'trace-test-2' } });
  expect(r.status).toBe(200);
  const [span] = await spans('request=trace-test-2', (s) => s.some((x) => x.service === 'rest-bridge'));
  expect(span).toMatchObject({ service: 'rest-bridge', kind: SERVER });
  expect(span.parentSpanId ?? '').toBe('');
});
