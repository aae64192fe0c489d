// A page a server renders for browsers (the REST bridge's reference at /docs and its data room):
// one HTML document sent with a strict Content-Security-Policy, and the files it loads under
// `<path>/assets/`, each either a file on disk (an npm package's bundled file, or a file beside
// the code) read once and kept in memory, or a text given here. Nothing is fetched from elsewhere,
// and the CSP makes the browser refuse anything that would leave the server's own origin. Assets
// carry an ETag and are revalidated (304), so a deploy's new files are seen at once.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A file the page loads: a path on disk (resolved on first request, so a missing file fails that request, not start-up), or its text. */
export type PageAsset = { file: () => string } | { text: string };

export interface StaticPage {
  /** the page's URL path (`/docs`); the page is also answered at `<path>/` */
  path: string;
  html: string;
  csp: string;
  /** URL name under `<path>/assets/` → the asset */
  assets: Record<string, PageAsset>;
}

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

export const assetsPath = (page: Pick<StaticPage, 'path'>): string => `${page.path}/assets/`;

/** The absolute path of a file inside an installed package, found from its main entry (for packages whose exports hide package.json). */
export function packageFile(pkg: string, fromEntryDir: string): string {
  return `${dirname(createRequire(import.meta.url).resolve(pkg))}/${fromEntryDir}`;
}

/** A handler answering GET/HEAD of the page and its assets; it resolves false for any other request, which the caller routes on. */
export function staticPageHandler(page: StaticPage): (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean> {
  const prefix = assetsPath(page);
  const cache = new Map<string, { body: Buffer; etag: string }>();
  for (const name of Object.keys(page.assets)) if (!TYPES[extname(name)]) throw new Error(`${page.path}: no content type for asset ${name}`);
  return async (req, res, path) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const head = req.method === 'HEAD';
    if (path === page.path || path === `${page.path}/`) {
      req.resume();
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-length': Buffer.byteLength(page.html),
        'content-security-policy': page.csp,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      });
      res.end(head ? undefined : page.html);
      return true;
    }
    if (!path.startsWith(prefix)) return false;
    const name = path.slice(prefix.length);
    if (!Object.hasOwn(page.assets, name)) return false;
    req.resume();
    let file = cache.get(name);
    if (!file) {
      const asset = page.assets[name];
      const body = 'text' in asset ? Buffer.from(asset.text) : await readFile(asset.file());
      file = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
      cache.set(name, file);
    }
    const headers = { etag: file.etag, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' };
    if (req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    res.writeHead(200, { ...headers, 'content-type': TYPES[extname(name)], 'content-length': file.body.length });
    res.end(head ? undefined : file.body);
    return true;
  };
}
