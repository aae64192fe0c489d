// GraphiQL (ruru, bundled in the npm package: no CDN) at GET /graphql for browsers, its assets under
// /graphql/static/. The header editor takes the API key (X-App-Id, X-Api-Key) or a JWT
// (Authorization); subscriptions go over graphql-ws on the same path, the headers becoming the
// connection_init payload the gateway authenticates.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ruruHTML, type RuruClientConfig } from 'ruru/server';
import { getStaticFile } from 'ruru/static';

export const GRAPHIQL_STATIC = '/graphql/static/';

const DEFAULT_QUERY = `# The supergraph: platform, AI, catalog and search in one schema.
# Put your credentials in the Headers tab, for example
#   { "X-App-Id": "app_…", "X-Api-Key": "sk_live_…" }   or   { "Authorization": "Bearer <JWT>" }
# Subscriptions (productEvents, taskEvents, aiEvents) run over WebSocket on this path.
query CurrentApp {
  currentApp { id name }
}
`;

/** A browser asking for the page: GET with Accept text/html and no GraphQL query in the URL. */
export function wantsGraphiQL(req: IncomingMessage, url: URL): boolean {
  return req.method === 'GET' && !url.searchParams.has('query') && /\btext\/html\b/.test(req.headers.accept ?? '');
}

/**
 * `?headers={"X-App-Id":"…","X-Api-Key":"…"}` (what `npm run seed` prints): the header editor opens
 * with them, in a tab of their own beside any saved ones. Only a flat object of header-like names and
 * string values is taken; anything else opens the page without it.
 */
export function headersParam(url: string | undefined): string | undefined {
  const raw = url ? new URL(url, 'http://x').searchParams.get('headers') : null;
  if (!raw || raw.length > 4096) return undefined;
  try {
    const h = JSON.parse(raw) as unknown;
    if (!h || typeof h !== 'object' || Array.isArray(h)) return undefined;
    const entries = Object.entries(h);
    if (!entries.every(([k, v]) => /^[A-Za-z0-9-]{1,64}$/.test(k) && typeof v === 'string' && /^[\x20-\x7e]*$/.test(v))) return undefined;
    return JSON.stringify(Object.fromEntries(entries), null, 2);
  } catch {
    return undefined;
  }
}

export function sendGraphiQL(req: IncomingMessage, res: ServerResponse): void {
  const host = req.headers.host ?? '127.0.0.1';
  const initialHeaders = headersParam(req.url);
  const html = ruruHTML({
    endpoint: '/graphql',
    subscriptionEndpoint: `ws://${host}/graphql`,
    staticPath: GRAPHIQL_STATIC,
    // an empty inline icon: without it the browser asks for /favicon.ico, a 404 in the console
    htmlParts: { metaTags: (base: string) => `${base}\n<link rel="icon" href="data:,">` },
    clientConfig: {
      defaultQuery: DEFAULT_QUERY,
      isHeadersEditorEnabled: true,
      defaultHeaders: JSON.stringify({ 'X-App-Id': '', 'X-Api-Key': '' }, null, 2),
      ...(initialHeaders ? { initialHeaders } : {}),
    } as RuruClientConfig, // ruru-types marks every prop required; the rest have defaults
  });
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html), 'cache-control': 'no-store' });
  res.end(html);
}

/** Serve one of ruru's bundled files; false when `path` is not one. */
export async function sendGraphiQLAsset(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  const file = await getStaticFile({ staticPath: GRAPHIQL_STATIC, urlPath: path, acceptEncoding: req.headers['accept-encoding'], disallowDevAssets: true });
  if (!file) return false;
  res.writeHead(200, { ...file.headers, 'cache-control': 'public, max-age=86400' });
  res.end(file.content);
  return true;
}
