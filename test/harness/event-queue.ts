// The events of a test's stream (an SSE response, a graphql-ws subscription) as a queue: `push`
// hands an event to the oldest waiting `next` or keeps it; `next` waits up to a timeout;
// `quiet(ms)` says whether nothing was kept after ms.
export class EventQueue<T> {
  private readonly kept: T[] = [];
  private readonly waiters: ((v: T) => void)[] = [];

  /** `what`: the event's name in a timeout's message; `failure`: the stream's error, if it failed */
  constructor(
    private readonly what: string,
    private readonly failure: () => unknown = () => undefined,
  ) {}

  push(v: T): void {
    const w = this.waiters.shift();
    if (w) w(v);
    else this.kept.push(v);
  }

  next(timeoutMs: number): Promise<T> {
    if (this.kept.length) return Promise.resolve(this.kept.shift()!);
    const failed = this.failure();
    if (failed) return Promise.reject(failed);
    return new Promise<T>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no ${this.what} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push((v) => {
        clearTimeout(t);
        resolve(v);
      });
    });
  }

  async quiet(ms: number): Promise<boolean> {
    await new Promise((r) => setTimeout(r, ms));
    return this.kept.length === 0;
  }
}
