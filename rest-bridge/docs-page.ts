// The REST reference at GET /docs: Swagger UI (swagger-ui-dist, served from node_modules: no CDN)
// rendering GET /openapi.json, with "Try it out" against this same server. GET / redirects here.
// The page's Content-Security-Policy allows this origin only, so the browser itself refuses any
// request that would leave the machine (Swagger UI's online validator badge is switched off too).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { assetsPath, staticPageHandler } from '../lib/static-page.js';

export const DOCS_PATH = '/docs';
const ASSETS = assetsPath({ path: DOCS_PATH });

let dir: string | undefined;
const dist = (name: string) => () => {
  dir ??= (createRequire(import.meta.url)('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();
  return join(dir, name);
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

const page = staticPageHandler({
  path: DOCS_PATH,
  html: HTML,
  csp: CSP,
  assets: {
    'swagger-ui-bundle.js': { file: dist('swagger-ui-bundle.js') },
    'swagger-ui.css': { file: dist('swagger-ui.css') },
    'favicon-32x32.png': { file: dist('favicon-32x32.png') },
    'start.js': { text: START },
  },
});

/** Answer GET /, /docs and its assets; false when the request is for another path. */
export async function sendDocs(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  if (path === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
    res.writeHead(302, { location: DOCS_PATH, 'content-length': 0 });
    res.end();
    return true;
  }
  return page(req, res, path);
}
