// GraphiQL (ruru) served offline by the gateway at GET /graphql: the page and every asset it names
// come from the gateway itself (no CDN), the header editor is on, subscriptions point at the same
// path over WebSocket; GraphQL GETs with a query and POSTs still reach the API.
import { stack } from '../harness/client.js';

const base = () => stack().gateway.replace(/\/graphql$/, '');

describe('GraphiQL at GET /graphql', () => {
  test('a browser GET gets the explorer whose scripts and styles are all served locally', async () => {
    const r = await fetch(stack().gateway, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    const html = await r.text();
    const host = new URL(stack().gateway).host;
    // every absolute URL in the page is this gateway (the ws:// subscription endpoint included)
    const external = [...html.matchAll(/(?:https?|wss?):\/\/[^\s"'`)]+/g)].map((m) => m[0]).filter((u) => !u.includes(host) && !u.startsWith('http://www.w3.org/'));
    expect(external).toEqual([]);
    expect(html).toContain(`ws://${host}/graphql`);
    expect(html).toContain('isHeadersEditorEnabled');
    const assets = [...html.matchAll(/(?:href|from)\s*=?\s*"(\/graphql\/static\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets).toEqual(expect.arrayContaining(['/graphql/static/ruru.js', '/graphql/static/ruru.css']));
    for (const a of new Set(assets)) {
      const s = await fetch(base() + a);
      expect(s.status).toBe(200);
      expect((await s.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });

  test('an unknown asset is 404; a GraphQL GET with a query and a POST are not the page', async () => {
    expect((await fetch(base() + '/graphql/static/nope.js')).status).toBe(404);
    const get = await fetch(`${stack().gateway}?query=${encodeURIComponent('{ __typename }')}`, { headers: { accept: 'application/json', 'apollo-require-preflight': '1' } });
    expect(await get.json()).toEqual({ data: { __typename: 'Query' } });
    const post = await fetch(stack().gateway, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/html, application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(await post.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
