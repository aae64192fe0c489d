// One webhook POST through the lib URL guard: no redirects followed (a 3xx is a failed attempt),
// a hard timeout, at most 64 KiB of the response read (its body is only kept for errors).
import { guardedFetch, NetGuardError } from '../../../lib/net-guard.js';

export interface PostResult {
  /** HTTP status, or undefined when no response came (network error, timeout, refused target) */
  status?: number;
  error?: string;
  /** true when retrying cannot help: the target is refused by the net guard, or answered 410 Gone */
  permanent: boolean;
}

export async function postWebhook(url: string, body: string, headers: Record<string, string>, opts: { allowPrivate: boolean; timeoutMs?: number }): Promise<PostResult> {
  try {
    const r = await guardedFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      allowPrivate: opts.allowPrivate,
      timeoutMs: opts.timeoutMs ?? 10_000,
      maxBytes: 64 * 1024,
    });
    if (r.status >= 200 && r.status < 300) return { status: r.status, permanent: false };
    const text = r.body.toString('utf8').slice(0, 500);
    return { status: r.status, error: `HTTP ${r.status}${text ? `: ${text}` : ''}`, permanent: r.status === 410 };
  } catch (e) {
    return { error: (e as Error).message, permanent: e instanceof NetGuardError || (e as { code?: string }).code === 'EINVALIDURL' };
  }
}
