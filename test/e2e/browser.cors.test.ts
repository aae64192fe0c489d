// CORS from a real browser (lib/cors.ts): two pages on other origins (small local HTTP servers on
// TEST_PORT_BASE+60 and +61) call the gateway and the REST bridge with a publishable API key whose
// app lists only the first origin in allowed_origins. From the listed origin the browser hands the
// page the answers; from the other it refuses them (fetch rejects, a CORS error in the console).
import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { createTenant, jsonApi, rest, stack, type Tenant } from '../harness/client.js';
import { describeBrowser, launchBrowser, recordingContext, type Recorder } from '../harness/browser.js';

const BASE = Number(process.env.TEST_PORT_BASE ?? 14000);
const SHOP = `http://127.0.0.1:${BASE + 60}`;
const ELSEWHERE = `http://127.0.0.1:${BASE + 61}`;

function originServer(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    const html = '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>shop</title></head><body>shop</body></html>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
    res.end(html);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

type Outcome = { status: number; body: any } | { failed: string };

/** From the page's own origin: a GraphQL POST to the gateway and a GET on the bridge, with the publishable key. */
async function callFrom(page: Page, t: Tenant): Promise<{ gateway: Outcome; rest: Outcome }> {
  return page.evaluate(
    async ({ gateway, bridge, headers }) => {
      const call = async (url: string, init: RequestInit) => {
        try {
          const r = await fetch(url, init);
          return { status: r.status, body: await r.json() };
        } catch (e) {
          return { failed: String(e) };
        }
      };
      return {
        gateway: await call(gateway, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ products(pageSize: 1) { items { id } } }' }) }),
        rest: await call(`${bridge}/v1/products`, { headers }),
      };
    },
    { gateway: stack().gateway, bridge: stack().rest, headers: { 'x-app-id': t.appId, 'x-api-key': t.publishableKey } },
  );
}

describeBrowser('CORS in Chromium', () => {
  let browser: Browser;
  let t: Tenant;
  const servers: Server[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    t = await createTenant();
    const r = await rest('PUT', `/accounts/${t.accountUrlId}/apps/${t.appId}`, { body: jsonApi('apps', { allowed_origins: [SHOP] }), headers: t.platformHeaders });
    expect(r.status).toBe(200);
    servers.push(await originServer(BASE + 60), await originServer(BASE + 61));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  async function from(origin: string): Promise<{ outcome: { gateway: Outcome; rest: Outcome }; seen: Recorder }> {
    const { context, page, seen } = await recordingContext(browser);
    try {
      await page.goto(`${origin}/`);
      return { outcome: await callFrom(page, t), seen };
    } finally {
      await context.close();
    }
  }

  test('a publishable key from an origin in allowed_origins works: the page reads both answers', async () => {
    const { outcome, seen } = await from(SHOP);
    // the answer and its cost report (docs/cost.md), both readable by the page
    expect(outcome.gateway).toMatchObject({ status: 200, body: { data: { products: { items: [] } }, extensions: { cost: { requested: expect.any(Number) } } } });
    expect(outcome.rest).toMatchObject({ status: 200, body: { data: [] } });
    expect(seen.errors).toEqual([]);
  }, 90_000); // a browser on a loaded CI machine: the page, the editor and the socket take their time

  test('the same key from an origin not listed is refused by the browser', async () => {
    const { outcome, seen } = await from(ELSEWHERE);
    expect(outcome.gateway).toEqual({ failed: 'TypeError: Failed to fetch' });
    expect(outcome.rest).toEqual({ failed: 'TypeError: Failed to fetch' });
    expect(seen.errors.filter((e) => /blocked by CORS policy/.test(e))).toHaveLength(2);
    // what the browser refused to show: the server's own 403 for that origin
    const direct = await rest('GET', '/v1/products', { headers: { 'x-app-id': t.appId, 'x-api-key': t.publishableKey, origin: ELSEWHERE } });
    expect(direct.status).toBe(403);
  }, 90_000); // a browser on a loaded CI machine: the page, the editor and the socket take their time
});
