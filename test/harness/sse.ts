// A GraphQL-over-SSE client for tests (the graphql-sse protocol, read by hand so the tests see the
// wire): a response's status, then its events (`event`, `id`, `data` parsed as JSON) as a queue.
import { EventQueue } from './event-queue.js';

export interface SseEvent<T = any> {
  event: string;
  id?: string;
  data: T;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** the JSON body of a refused request */
  body?: any;
  next(timeoutMs?: number): Promise<SseEvent>;
  /** true if no event arrives within ms */
  quiet(ms: number): Promise<boolean>;
  /** resolves when the server ends the response */
  ended: Promise<void>;
  close(): void;
}

export async function sseRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown }): Promise<SseStream> {
  const ac = new AbortController();
  const res = await fetch(url, {
    method: init.method ?? 'POST',
    headers: { accept: 'text/event-stream', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    signal: ac.signal,
  });
  const events = new EventQueue<SseEvent>('SSE event');
  const stream: SseStream = {
    status: res.status,
    headers: res.headers,
    next: (timeoutMs = 8000) => events.next(timeoutMs),
    quiet: (ms) => events.quiet(ms),
    ended: Promise.resolve(),
    close: () => ac.abort(),
  };
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const text = await res.text();
    try {
      stream.body = JSON.parse(text);
    } catch {
      stream.body = text;
    }
    return stream;
  }
  stream.ended = (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let at: number;
        while ((at = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, at);
          buf = buf.slice(at + 2);
          const e = parseBlock(block);
          if (e) events.push(e);
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return stream;
}

function parseBlock(block: string): SseEvent | undefined {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const i = line.indexOf(':');
    const field = i < 0 ? line : line.slice(0, i);
    const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  if (!data.length && event === 'message') return undefined;
  const raw = data.join('\n');
  return { event, id, data: raw ? JSON.parse(raw) : undefined };
}
