// The platform's request context. `ctx.loaders` holds every aggregate's per-request DataLoaders: each
// aggregate declares its own in its `<aggregate>.loaders.ts` (a TypeScript augmentation of
// PlatformLoaders) and lists the factory in its `<aggregate>.module.ts`; the kernel merges them per
// request (lib/subgraph-module.ts). Account, app and key rows pass through the `tenant` filter, so
// foreign rows load as null / [].
import type { SubgraphContext } from '../../lib/subgraph.js';
import type { PlatformRuntime } from './runtime.js';

/** Every platform loader, by name: each member is declared by its aggregate's `<aggregate>.loaders.ts`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PlatformLoaders {}

export type PlatformContext = SubgraphContext<PlatformLoaders, PlatformRuntime>;
