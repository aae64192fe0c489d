// In-process calls between the parts of one process. When `npm start` runs the whole system in one
// process (the default), the gateway's fetches to a subgraph need not cross a loopback socket: the
// subgraph registers its request handler here under its URL, and the gateway hands it the same
// headers and body it would have POSTed (signed tenant context included: the subgraph verifies it
// as for a network request). What is saved per fetch is HTTP itself: the client request, two socket
// writes, two HTTP parses and the body stream (docs/performance.md). Processes started apart
// (START_PROCESSES=split, the standalone entry points) have no LocalRoutes and speak HTTP.

/** One request as the HTTP path would have carried it: lower-case header names, the body text. */
export type LocalHandler = (headers: Record<string, string>, body: string) => Promise<{ status: number; text: string }>;

export class LocalRoutes {
  private readonly handlers = new Map<string, LocalHandler>();

  /** Serve `url` in process until the returned function is called (the server stopping). */
  register(url: string, handler: LocalHandler): () => void {
    this.handlers.set(url, handler);
    return () => {
      if (this.handlers.get(url) === handler) this.handlers.delete(url);
    };
  }

  /** The in-process handler of `url`, if one is registered now. */
  get(url: string): LocalHandler | undefined {
    return this.handlers.get(url);
  }
}
