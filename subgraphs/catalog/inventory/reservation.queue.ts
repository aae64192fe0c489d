// A per-key queue that turns concurrent requests into groups: the first request of a key runs at once
// as a group of one; requests of the same key arriving while a group is in flight wait, and when it
// completes they go together as the next group (at most `maxGroup`, in arrival order). Keys never
// mix: a group holds requests of one key only. Each request gets its own settled result back.
// Pure mechanism: what a group does is the `run` given to the constructor. It groups within this
// process only; whatever must hold across processes is the run's business (the database's locks).

export type GroupRun<Req, Res> = (key: string, requests: Req[]) => Promise<PromiseSettledResult<Res>[]>;

interface Waiting<Req, Res> {
  request: Req;
  resolve: (r: Res) => void;
  reject: (e: unknown) => void;
}

export class GroupQueue<Req, Res> {
  /** a key is present while one of its groups is in flight; its array holds the requests waiting for the next group */
  private readonly waiting = new Map<string, Waiting<Req, Res>[]>();

  constructor(
    private readonly run: GroupRun<Req, Res>,
    private readonly maxGroup = 200,
  ) {}

  /** Requests waiting (not yet sent) across all keys. */
  get queued(): number {
    let n = 0;
    for (const w of this.waiting.values()) n += w.length;
    return n;
  }

  submit(key: string, request: Req): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      const entry = { request, resolve, reject };
      const line = this.waiting.get(key);
      if (line) line.push(entry);
      else {
        this.waiting.set(key, []);
        void this.send(key, [entry]);
      }
    });
  }

  private async send(key: string, group: Waiting<Req, Res>[]): Promise<void> {
    let results: PromiseSettledResult<Res>[] | undefined;
    let failure: unknown;
    try {
      results = await this.run(
        key,
        group.map((g) => g.request),
      );
    } catch (e) {
      failure = e;
    }
    group.forEach((g, i) => {
      const r = results?.[i];
      if (!r) g.reject(failure ?? new Error('group run answered fewer results than requests'));
      else if (r.status === 'fulfilled') g.resolve(r.value);
      else g.reject(r.reason);
    });
    const line = this.waiting.get(key)!;
    if (!line.length) {
      this.waiting.delete(key);
      return;
    }
    const next = line.splice(0, this.maxGroup);
    void this.send(key, next);
  }
}
