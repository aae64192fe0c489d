// In-process calls between the parts of one process. When `npm start` runs the whole system in one
// process (the default), the gateway's fetches to a subgraph, and the REST bridge's calls to the
// gateway, need not cross a loopback socket: the callee registers its request handler here under its
// URL, and the caller hands it the same headers and body it would have POSTed (signed tenant context
// or client address included: the callee verifies them as for a network request). What is saved per fetch is HTTP itself: the client request, two socket
// writes, two HTTP parses and the body stream (docs/performance.md). Processes started apart
// (START_PROCESSES=split, the standalone entry points) have no LocalRoutes and speak HTTP.

/**
 * One request as the HTTP path would have carried it: lower-case header names, the body text; the
 * answer's headers when they matter. A caller that built the body from a value may hand the value
 * instead (`parsed`, `body` then empty): the callee uses it without parsing (the REST bridge's
 * GraphQL requests to the gateway, whose bodies the bridge built from input it already checked). A
 * callee may also hand its answer over as a value (a subgraph's successful answer, the gateway's result
 * for a request given as a value): the caller then need not parse `text`.
 */
export type LocalHandler = (
  headers: Record<string, string>,
  body: string,
  parsed?: unknown,
  /** the end client's address, as a caller that resolved it would send it signed over HTTP (the REST bridge's x-client-address) */
  clientAddress?: string,
) => Promise<{ status: number; text: string; headers?: Record<string, string>; value?: unknown }>;

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
