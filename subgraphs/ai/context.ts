// The AI service's request context. `ctx.loaders` holds every aggregate's per-request DataLoaders:
// each aggregate declares its own in its `<aggregate>.loaders.ts` (a TypeScript augmentation of
// AiLoaders) and lists the factory in its `<aggregate>.module.ts`; the kernel merges them per
// request (lib/subgraph-module.ts).
import type { SubgraphContext } from '../../lib/subgraph.js';
import type { AiRuntime } from './runtime.js';

/** Every AI loader, by name: each member is declared by its aggregate's `<aggregate>.loaders.ts`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AiLoaders {}

export type AiContext = SubgraphContext<AiLoaders, AiRuntime>;
