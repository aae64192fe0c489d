// One webhook POST: http or https, the net guard as the DNS lookup (so the address connected to
// is the address checked), no redirects followed (a 3xx is a failed attempt), a hard timeout, and
// at most 64 KiB of the response read (receivers answer 2xx; their body is only kept for errors).
import http from 'node:http';
import https from 'node:https';
import { guardedLookup, NetGuardError } from '../../../lib/net-guard.js';

export interface PostResult {
  /** HTTP status, or undefined when no response came (network error, timeout, refused target) */
  status?: number;
  error?: string;
  /** true when retrying cannot help: the target is refused by the net guard, or answered 410 Gone */
  permanent: boolean;
}

const MAX_RESPONSE = 64 * 1024;

export function postWebhook(url: string, body: string, headers: Record<string, string>, opts: { allowPrivate: boolean; timeoutMs?: number }): Promise<PostResult> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return Promise.resolve({ error: 'invalid URL', permanent: true });
  }
  const mod = u.protocol === 'https:' ? https : u.protocol === 'http:' ? http : undefined;
  if (!mod) return Promise.resolve({ error: `unsupported protocol ${u.protocol}`, permanent: true });
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return new Promise((resolve) => {
    const req = mod.request(
      u,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
        lookup: guardedLookup({ allowPrivate: opts.allowPrivate }) as never,
        timeout: timeoutMs,
        agent: false,
      },
      (res) => {
        let size = 0;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (size < MAX_RESPONSE) chunks.push(c);
          size += c.length;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve({ status, permanent: false });
          const text = Buffer.concat(chunks).toString('utf8').slice(0, 500);
          resolve({ status, error: `HTTP ${status}${text ? `: ${text}` : ''}`, permanent: status === 410 });
        });
        res.on('error', (e) => resolve({ status: res.statusCode, error: e.message, permanent: false }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on('error', (e) => resolve({ error: e.message, permanent: e instanceof NetGuardError }));
    req.end(body);
  });
}
