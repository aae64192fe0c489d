// One text/event-stream response as graphql-sse writes it: `next` and `complete` events (each
// `event:` and `data:` line, and `id:` when the event has one in the tenant's stream, which the
// client sends back as Last-Event-ID), a comment every KEEP_ALIVE_MS so proxies keep it open.
import type { ServerResponse } from 'node:http';

export const KEEP_ALIVE_MS = 12_000;

export class SseWriter {
  private timer?: NodeJS.Timeout;
  closed = false;

  constructor(private res: ServerResponse, onClose: () => void) {
    res.on('close', () => {
      this.closed = true;
      clearInterval(this.timer);
      onClose();
    });
  }

  /** Status 200 and the stream's headers (the CORS ones given), flushed at once so the client knows it is connected. */
  open(headers: Record<string, string>): void {
    this.res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    this.res.flushHeaders();
    this.res.write(':\n\n');
    this.timer = setInterval(() => this.write(':\n\n'), KEEP_ALIVE_MS);
    this.timer.unref();
  }

  next(data: unknown, id?: string): void {
    this.write(`${id ? `id: ${id}\n` : ''}event: next\ndata: ${JSON.stringify(data)}\n\n`);
  }

  complete(data?: unknown): void {
    this.write(`event: complete\ndata: ${data === undefined ? '' : JSON.stringify(data)}\n\n`);
  }

  /** Ends the response; `why`, a comment line before it (e.g. the credentials are gone). */
  end(why?: string): void {
    if (this.closed) return;
    if (why) this.write(`: ${why.replace(/\n/g, ' ')}\n\n`);
    clearInterval(this.timer);
    this.res.end();
  }

  private write(chunk: string): void {
    if (!this.closed) this.res.write(chunk);
  }
}
