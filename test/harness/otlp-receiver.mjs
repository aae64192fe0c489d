// An OTLP/HTTP (JSON) trace receiver for the test run, started by global-setup before the stack so
// the stack's exporters always have a collector (with none, their queues fill with retried batches
// and later spans are dropped). POST /v1/traces stores spans (the last 20,000); GET /spans?trace=<id>
// or ?request=<X-Request-Id> answers the matching ones, each with its resource's service.name.
// Plain ESM JavaScript: loaded by global-setup outside jest's module mapper.
import { createServer } from 'node:http';

export async function startOtlpReceiver(port) {
  const spans = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'POST' && url.pathname === '/v1/traces') {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          for (const rs of body.resourceSpans ?? []) {
            const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value?.stringValue ?? '';
            for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spans.push({ ...s, service });
          }
          if (spans.length > 20_000) spans.splice(0, spans.length - 20_000);
        } catch {
          res.writeHead(400);
          return res.end();
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{}');
      }
      if (req.method === 'GET' && url.pathname === '/spans') {
        const trace = url.searchParams.get('trace');
        const request = url.searchParams.get('request');
        const found = spans.filter((s) => (trace && s.traceId === trace) || (request && s.attributes?.some((a) => a.key === 'request.id' && a.value?.stringValue === request)));
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(found));
      }
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}
