// GraphiQL (ruru) served offline by the gateway at GET /graphql: the page and every asset it names
// come from the gateway itself (no CDN), the header editor is on, subscriptions point at the same
// path over WebSocket; GraphQL GETs with a query and POSTs still reach the API. The page is ours for
// every browser GET (a query in the URL is prefilled), never Apollo's landing page, with a self-only
// CSP and no framing; `/` leads a browser there, and a bare GET from a script gets directions.
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

describe('every browser page of the gateway is our GraphiQL, self-only and unframeable', () => {
  const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

  function inlineScripts(html: string): string[] {
    return [...html.matchAll(/<script\b([^>]*)>/gi)].map((m) => m[1]);
  }

  test('the page carries a CSP limited to this origin with frame-ancestors none, and a nonce on each inline script', async () => {
    const r = await fetch(stack().gateway, { headers: browser });
    const csp = r.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    const nonce = directives['script-src'].find((v: string) => v.startsWith("'nonce-"))!.slice(7, -1);
    expect(directives['script-src']).toEqual(["'self'", `'nonce-${nonce}'`]);
    // no source outside this origin anywhere in the policy
    expect(csp).not.toMatch(/https?:|\*|unsafe-eval/);
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    const html = await r.text();
    for (const attrs of inlineScripts(html)) expect(attrs).toContain(`nonce="${nonce}"`);
    // a fresh nonce per page
    const again = await fetch(stack().gateway, { headers: browser });
    expect(again.headers.get('content-security-policy')).not.toContain(nonce);
  });

  test("a browser GET with a query gets the page with that query prefilled, never Apollo's landing page", async () => {
    const query = '{ currentApp { id } }';
    const r = await fetch(`${stack().gateway}?query=${encodeURIComponent(query)}&variables=${encodeURIComponent('{"a":1}')}`, { headers: browser });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    const html = await r.text();
    expect(html).toContain(`"initialQuery":${JSON.stringify(query)}`);
    expect(html).toContain(`"initialVariables":${JSON.stringify('{"a":1}')}`);
    expect(html).not.toMatch(/apollographql|embeddable-sandbox|fonts\.googleapis/i);
    expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  test('text from the URL cannot close the config script (any letter case)', async () => {
    const evil = '</SCRIPT><SCRIPT>alert(1)</SCRIPT><!--';
    const html = await (await fetch(`${stack().gateway}?query=${encodeURIComponent(evil)}`, { headers: browser })).text();
    expect(html).not.toContain('</SCRIPT>');
    expect(html).not.toContain('<SCRIPT>');
    expect(html).toContain('\\u003c/SCRIPT>');
  });

  test('GET / leads a browser to GraphiQL; a script gets directions as JSON', async () => {
    const r = await fetch(`${base()}/`, { headers: browser, redirect: 'manual' });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('/graphql');
    const followed = await fetch(`${base()}/`, { headers: browser });
    expect(followed.url).toBe(stack().gateway);
    expect(followed.headers.get('content-type')).toContain('text/html');
    const plain = await fetch(`${base()}/`);
    expect(plain.status).toBe(200);
    expect(await plain.json()).toMatchObject({ service: 'gateway', graphql: '/graphql', message: expect.stringContaining('POST /graphql') });
  });

  test('a bare GET /graphql from a script (curl) gets a 400 saying how to send a query, not a CSRF refusal', async () => {
    for (const headers of [{}, { accept: '*/*' }, { accept: 'application/json' }] as Record<string, string>[]) {
      const r = await fetch(stack().gateway, { headers });
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/json');
      const body = (await r.json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
      expect(body.errors[0].message).toMatch(/POST \/graphql/);
      expect(body.errors[0].message).toMatch(/browser/);
      expect(body.errors[0].message).not.toMatch(/CSRF|Cross-Site/i);
    }
  });
});
