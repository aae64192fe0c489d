// The REST reference at GET /docs: Swagger UI (swagger-ui-dist, served from node_modules: no CDN)
// rendering GET /openapi.json, with "Try it out" against this same server. GET / redirects here.
// The page's Content-Security-Policy allows this origin only, so the browser itself refuses any
// request that would leave the machine (Swagger UI's online validator badge is switched off too).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const DOCS_PATH = '/docs';
const ASSETS = `${DOCS_PATH}/assets/`;

/** The files the page loads, by URL name: Swagger UI's bundle and style, and the page's own start script. */
const FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const START = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    persistAuthorization: true,
    tryItOutEnabled: false,
    displayRequestDuration: true,
    filter: true,
    docExpansion: 'none',
    defaultModelsExpandDepth: 0,
  });
});
`;

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>REST API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="${ASSETS}favicon-32x32.png">
<link rel="stylesheet" href="${ASSETS}swagger-ui.css">
<style>body { margin: 0 } .topbar { display: none }</style>
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS}swagger-ui-bundle.js"></script>
<script src="${ASSETS}start.js"></script>
</body>
</html>
`;

// Swagger UI sets inline styles and loads images from data: URLs; everything else is this origin.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'self'";

let dir: string | undefined;
function distDir(): string {
  dir ??= (createRequire(import.meta.url)('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();
  return dir;
}

const cache = new Map<string, Buffer>();

/** Answer GET /, /docs and its assets; false when the request is for another path. */
export async function sendDocs(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (path === '/') {
    res.writeHead(302, { location: DOCS_PATH, 'content-length': 0 });
    res.end();
    return true;
  }
  if (path === DOCS_PATH || path === `${DOCS_PATH}/`) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(HTML), 'content-security-policy': CSP, 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : HTML);
    return true;
  }
  if (!path.startsWith(ASSETS)) return false;
  const name = path.slice(ASSETS.length);
  let body: Buffer;
  let type: string;
  if (name === 'start.js') {
    body = Buffer.from(START);
    type = 'application/javascript; charset=utf-8';
  } else if (Object.hasOwn(FILES, name)) {
    body = cache.get(name) ?? (await readFile(join(distDir(), name)));
    cache.set(name, body);
    type = FILES[name];
  } else return false;
  res.writeHead(200, { 'content-type': type, 'content-length': body.length, 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
