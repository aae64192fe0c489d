// POST JSON over node:http with a keep-alive agent. Hot internal hops (gateway → subgraph,
// bridge → gateway) use this instead of fetch: undici's WHATWG streams cost ~0.3 ms a call here.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 30_000 });

export interface JsonResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export function postJson(url: string, headers: Record<string, string>, body: string, timeoutMs = 30_000): Promise<JsonResponse> {
  return requestJson('POST', url, headers, body, timeoutMs);
}

/**
 * A request that fails with ECONNRESET on a pooled keep-alive socket, before any answer, is sent once
 * more on a new one: the server closed that idle socket as the request left (its keep-alive timeout),
 * so it never read it (Node's documented retry for `req.reusedSocket`). Under load the federation
 * audit's subgraphs did this to an entity fetch (npm run audit:federation).
 */
export function requestJson(method: string, url: string, headers: Record<string, string>, body?: string, timeoutMs = 30_000): Promise<JsonResponse> {
  return sendOnce(method, url, headers, body, timeoutMs).catch((e: NodeJS.ErrnoException & { reusedSocket?: boolean }) => {
    if (e.reusedSocket && e.code === 'ECONNRESET') return sendOnce(method, url, headers, body, timeoutMs);
    throw e;
  });
}

function sendOnce(method: string, url: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<JsonResponse> {
  const u = new URL(url);
  let answered = false;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port || 80,
        path: u.pathname + u.search,
        method,
        agent,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`request to ${u.host} timed out after ${timeoutMs} ms`)));
    req.on('error', (e: NodeJS.ErrnoException & { reusedSocket?: boolean }) => {
      // before the answer: the server never read this request on a reused socket (requestJson)
      e.reusedSocket = req.reusedSocket && !answered;
      reject(e);
    });
    req.end(body);
  });
}

export function headerValue(h: http.IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * A response's text as its reader wants it: parsed when it is JSON, the text as it is otherwise (an
 * HTML error page, a plain-text line), undefined when empty. The API clients of the scripts and the
 * tests read every answer through it, so a non-JSON answer is shown rather than thrown.
 */
export function bodyOf(text: string): any {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}
