// The search service's request context. `ctx.loaders` holds every aggregate's per-request
// DataLoaders: each aggregate declares its own in its `<aggregate>.loaders.ts` (a TypeScript
// augmentation of SearchLoaders) and lists the factory in its `<aggregate>.module.ts`; the kernel
// merges them per request (lib/subgraph-module.ts).
import type { SubgraphContext } from '../../lib/subgraph.js';
import type { SearchRuntime } from './runtime.js';

/** Every search loader, by name: each member is declared by its aggregate's `<aggregate>.loaders.ts`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SearchLoaders {}

export type SearchContext = SubgraphContext<SearchLoaders, SearchRuntime>;
