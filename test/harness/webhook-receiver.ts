// A local HTTP server that records the webhooks it receives (the test stack runs with
// ALLOW_PRIVATE_NETWORK_FETCH=1, so the platform may post to 127.0.0.1). `respond` decides the
// status per request, e.g. 500 for the first try of each delivery to exercise retries.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** the first request (already received or still to come) matching `pred` */
  waitFor(pred: (r: Received) => boolean, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
}

export async function startReceiver(respond: (r: Received, nth: number) => number = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { pred: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const r: Received = { path: req.url ?? '/', headers: req.headers, body, json, at: Date.now() };
      received.push(r);
      res.writeHead(respond(r, received.length));
      res.end('ok');
      for (const w of [...waiters]) {
        if (w.pred(r)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(r);
        }
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    waitFor(pred, timeoutMs = 10_000) {
      const hit = received.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const w = { pred, resolve };
        waiters.push(w);
        setTimeout(() => {
          const i = waiters.indexOf(w);
          if (i >= 0) {
            waiters.splice(i, 1);
            reject(new Error(`no matching webhook within ${timeoutMs} ms (received ${received.length}: ${received.map((x) => x.headers['x-webhook-event'] ?? x.path).join(', ')})`));
          }
        }, timeoutMs).unref();
      });
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
