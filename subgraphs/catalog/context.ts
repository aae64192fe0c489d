// The catalog's request context. `ctx.loaders` holds every aggregate's per-request DataLoaders: each
// aggregate declares its own in its `<aggregate>.loaders.ts` (a TypeScript augmentation of
// CatalogLoaders, the way Vendure's plugins add custom fields) and lists the factory in its
// `<aggregate>.module.ts`; the kernel merges them per request (lib/subgraph-module.ts). So this file
// imports no aggregate, and a new loader is written beside the aggregate that reads it.
import type { SubgraphContext } from '../../lib/subgraph.js';
import type { CatalogRuntime } from './runtime.js';

/** Every catalog loader, by name: each member is declared by its aggregate's `<aggregate>.loaders.ts`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CatalogLoaders {}

export type CatalogContext = SubgraphContext<CatalogLoaders, CatalogRuntime>;
