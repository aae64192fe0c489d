// GET /data-room: the investor data room page and its assets (lib/static-page.ts), served from this
// origin only under a CSP with no inline script or style; assets revalidate by ETag. The page in a
// browser against the real stack: test/e2e/browser.data-room.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendDataRoom } from '../../rest-bridge/data-room.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    void sendDataRoom(req, res, new URL(req.url ?? '/', 'http://x').pathname).then((done) => {
      if (!done) res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

test('the page: HTML under a self-only CSP, loading only its own assets', async () => {
  for (const path of ['/data-room', '/data-room/']) {
    const r = await fetch(base + path);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await r.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.filter((u) => u !== 'data:,').sort()).toEqual(['/data-room/assets/chart.umd.min.js', '/data-room/assets/data-room.css', '/data-room/assets/data-room.js']);
    expect(html).not.toMatch(/<script>|style="/);
  }
});

test('assets: Chart.js from node_modules and the page script, with types; the script calls only /reporting/* here', async () => {
  const types: Record<string, string> = { 'chart.umd.min.js': 'application/javascript', 'data-room.js': 'application/javascript', 'data-room.css': 'text/css' };
  for (const [name, type] of Object.entries(types)) {
    const r = await fetch(`${base}/data-room/assets/${name}`);
    expect({ name, status: r.status }).toEqual({ name, status: 200 });
    expect(r.headers.get('content-type')).toContain(type);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  }
  expect(await (await fetch(`${base}/data-room/assets/chart.umd.min.js`)).text()).toMatch(/^\/\*!\n \* Chart\.js v4\./);
  const script = await (await fetch(`${base}/data-room/assets/data-room.js`)).text();
  expect(script).not.toMatch(/https?:\/\/|wss?:\/\//);
  expect([...script.matchAll(/fetch\(`([^`$]*)/g)].map((m) => m[1])).toEqual(['/reporting/']);
});

test('an asset is revalidated by its ETag (304); HEAD has no body; unknown names and other methods are not served', async () => {
  const first = await fetch(`${base}/data-room/assets/data-room.js`);
  const etag = first.headers.get('etag')!;
  expect(etag).toMatch(/^"[\w-]{22}"$/);
  expect(first.headers.get('cache-control')).toBe('no-cache');
  expect((await fetch(`${base}/data-room/assets/data-room.js`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  const head = await fetch(`${base}/data-room/assets/data-room.css`, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(await head.text()).toBe('');
  for (const path of ['/data-room/assets/../../package.json', '/data-room/assets/data-room.html', '/data-room/assets/', '/data-roomx']) expect((await fetch(base + path)).status).toBe(404);
  expect((await fetch(`${base}/data-room`, { method: 'POST' })).status).toBe(404);
});
