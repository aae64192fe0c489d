// GraphiQL (ruru, bundled in the npm package: no CDN) for every browser GET of /graphql, its assets
// under /graphql/static/. A `query` (with `variables`) and `headers` (a JSON object) in the URL are prefilled in the
// editor. The header editor takes the API key (X-App-Id, X-Api-Key) or a JWT (Authorization);
// subscriptions go over graphql-ws on the same path, the headers becoming the connection_init
// payload the gateway authenticates (GraphiQL's fetcher speaks graphql-ws, not SSE: the page's help
// names the SSE endpoint for clients that want it, docs/subscriptions.md). The page may load and connect only to this origin (CSP), and
// may not be framed, so no third-party script ever sees the credentials typed into it.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ruruHTML, type RuruClientConfig } from 'ruru/server';
import { getStaticFile } from 'ruru/static';
import { sendJson } from '../lib/http.js';
import type { Logger } from '../lib/logger.js';

export const GRAPHIQL_STATIC = '/graphql/static/';

const DEFAULT_QUERY = `# The supergraph: platform, AI, catalog and search in one schema.
# Put your credentials in the Headers tab, for example
#   { "X-App-Id": "app_…", "X-Api-Key": "sk_live_…" }   or   { "Authorization": "Bearer <JWT>" }
# Subscriptions (productEvents, inventoryEvents, inventoryAlerts, taskEvents, aiEvents) run over WebSocket
# on this path (here); SSE clients (graphql-sse) use the same path with Accept: text/event-stream.
# Both resume: results carry an event id (WebSocket: extensions.eventId; SSE: the event's id), and
# extensions: { "resumeFrom": "<id>" } (or SSE's Last-Event-ID) replays what was missed.
# Registered operations: send {"documentId": "<id>"} instead of a query (README "Registered operations").
# Cacheable queries are answered from the gateway's response cache (Cache-Control and Age headers).
query CurrentApp {
  currentApp { id name }
}

# Query cost: every answer's extensions.cost = { requested, limit, remaining, resetAt } is the
# operation's estimate (the schema's @cost/@listSize: objects 1, scalars 0, lists × their page size)
# and your API key's cost budget for this minute, by plan (MAX_QUERY_COST per operation; docs/cost.md).
`;

/** Prefilled text is capped: the editor is for reading and typing, not for megabytes. */
const MAX_PREFILL = 64 * 1024;

/** A browser asking for a page: GET (or HEAD) whose Accept names HTML, with or without a query in the URL. */
export function wantsPage(req: IncomingMessage): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && /\btext\/html\b/.test(req.headers.accept ?? '');
}

/** A GET of /graphql with no query that is not a browser (curl, a script): it gets directions, not an error of Apollo's. */
export function isBareGet(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  // parsed only for a GET: every POST /graphql comes through here
  const search = new URL(req.url ?? '/', 'http://x').searchParams;
  return !search.has('query') && !search.has('extensions');
}

export const BARE_GET_MESSAGE =
  'This is the GraphQL endpoint. Send a query as POST /graphql with content-type application/json and a body {"query": "...", "variables": {...}}, ' +
  'or as GET /graphql?query=... with the header apollo-require-preflight: 1 (queries only). ' +
  'Subscriptions: graphql-ws on this path, or SSE (graphql-sse) with Accept: text/event-stream. ' +
  'Authenticate with X-App-Id and X-Api-Key, or Authorization: Bearer <JWT>. Open this URL in a browser for GraphiQL; the schema is at /graphql/schema.graphql.';

/** Headers of every GraphiQL page: only this origin may serve its scripts, styles, workers and sockets; no framing. */
export function pageSecurityHeaders(nonce: string): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'`,
      // GraphiQL and Monaco set element styles at run time
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "worker-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
}

function prefill(url: URL, name: string): string | undefined {
  const v = url.searchParams.get(name);
  return v && v.length <= MAX_PREFILL ? v : undefined;
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

export function sendGraphiQL(req: IncomingMessage, res: ServerResponse, url: URL): void {
  const host = req.headers.host ?? '127.0.0.1';
  const nonce = randomBytes(16).toString('base64');
  const query = prefill(url, 'query');
  const variables = prefill(url, 'variables');
  const initialHeaders = headersParam(req.url);
  const html = ruruHTML({
    endpoint: '/graphql',
    subscriptionEndpoint: `ws://${host}/graphql`,
    staticPath: GRAPHIQL_STATIC,
    // an empty inline icon: without it the browser asks for /favicon.ico, a 404 in the console
    htmlParts: {
      metaTags: (base: string) => `${base}\n<link rel="icon" href="data:,">`,
      // the config as JSON with every `<` escaped: ruru's own escaping is case-sensitive, and the URL's query is anyone's text
      configScript: (_base: string, config: unknown) => `<script>\nconst RURU_CONFIG = ${JSON.stringify(config).replace(/</g, '\\u003c')};\n</script>`,
    },
    clientConfig: {
      defaultQuery: DEFAULT_QUERY,
      ...(query ? { initialQuery: query } : {}),
      ...(variables ? { initialVariables: variables } : {}),
      isHeadersEditorEnabled: true,
      defaultHeaders: JSON.stringify({ 'X-App-Id': '', 'X-Api-Key': '' }, null, 2),
      ...(initialHeaders ? { initialHeaders } : {}),
    } as RuruClientConfig, // ruru-types marks every prop required; the rest have defaults
  })
    // ruru's inline scripts carry the nonce the CSP allows (text from the URL holds no `<`: see configScript)
    .replace(/<script(?=[\s>])/g, `<script nonce="${nonce}"`);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html), 'cache-control': 'no-store', ...pageSecurityHeaders(nonce) });
  res.end(req.method === 'HEAD' ? undefined : html);
}

/** Serve one of ruru's bundled files; false when `path` is not one. */
export async function sendGraphiQLAsset(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  const file = await getStaticFile({ staticPath: GRAPHIQL_STATIC, urlPath: path, acceptEncoding: req.headers['accept-encoding'], disallowDevAssets: true });
  if (!file) return false;
  res.writeHead(200, { ...file.headers, 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' });
  res.end(file.content);
  return true;
}

/**
 * The browser's paths: every page of the gateway is GraphiQL, never Apollo's landing page (it loads
 * third-party script); a bare GET of /graphql (no query) is told how to ask; the page's assets. False
 * for anything else.
 */
export function serveGraphiQLPaths(req: IncomingMessage, res: ServerResponse, path: string, log: Logger): boolean {
  if (path === '/graphql' && wantsPage(req)) {
    sendGraphiQL(req, res, new URL(req.url ?? '/', 'http://x'));
    return true;
  }
  if (path === '/' && wantsPage(req)) {
    res.writeHead(302, { location: '/graphql', 'cache-control': 'no-store' }).end();
    return true;
  }
  if (path === '/graphql' && isBareGet(req)) {
    sendJson(res, 400, { errors: [{ message: BARE_GET_MESSAGE, extensions: { code: 'BAD_REQUEST', status: 400 } }] });
    return true;
  }
  if (!path.startsWith(GRAPHIQL_STATIC)) return false;
  void sendGraphiQLAsset(req, res, path)
    .then((sent) => sent || sendJson(res, 404, { errors: [{ message: 'Not found', extensions: { code: 'ROUTE_NOT_FOUND', status: 404 } }] }))
    .catch((e) => log.error('graphiql asset failed', { err: e }));
  return true;
}
