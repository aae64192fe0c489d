// Resources that the subgraphs of one process share when they run together (`npm start`:
// scripts/stack.ts), made on the first ask and stopped once, after every subgraph that asked: the
// vision models (lib/vision VisionWorkers), which the AI and catalog subgraphs would otherwise each
// load into threads of their own. A subgraph in a process of its own gets none and makes its own.
// Passed explicitly (startSubgraph's `shared`, then WorkerDeps.shared), never a module singleton.

export interface Stoppable {
  stop(): Promise<void>;
}

export class ProcessShared {
  private readonly items = new Map<string, Stoppable>();

  /** The resource under `key`, made by `make` on the first ask; every later ask gets that one. */
  get<T extends Stoppable>(key: string, make: () => T): T {
    let item = this.items.get(key);
    if (!item) this.items.set(key, (item = make()));
    return item as T;
  }

  /** Stop every resource made (once the subgraphs using them have stopped). */
  async stop(): Promise<void> {
    const all = [...this.items.values()];
    this.items.clear();
    await Promise.all(all.map((i) => i.stop()));
  }
}
