// A search's engine work (or a filter's ids), on a node that holds the index: here when this node does (or placement is
// off), else forwarded to a holder (node-client.ts), trying the holders in turn and, when none
// answers, searching here (the engine loads here and is unloaded after the grace period). A holder's
// domain error comes back as the same DomainError, so its 503 + Retry-After (engine loading) or 400
// (a bad filter) reaches the client as if this node had answered. An index this node holds but has
// not loaded yet, which a peer holding it had loaded (this node just took it over: a node died or
// joined), is searched on that peer while its engine loads here (queued by demand), so a takeover
// makes no search wait for a load.
import { DomainError, type ErrorCode } from '../../../lib/errors.js';
import type { SearchRequest, SearchResult } from '../../../lib/search-engine/types.js';
import type { SearchContext } from '../context.js';
import { engineCall } from '../errors.js';
import type { IndexState } from '../engine-registry/engine-registry.js';
import { callNode } from './node-client.js';

export const ENGINE_PATH = '/internal/search/engine';

/** The engine calls a node forwards: a search, or the ids a filter selects (filtered listing, delete by filter's check). */
export type EngineOp = { op: 'search'; request: SearchRequest } | { op: 'filterIds'; filter: SearchRequest['filter'] };

/** What a node asks a holder to run (the holder resolves the uid again, under the same tenant context). */
export type EngineCall = EngineOp & { indexUid: string; parameterPrefix?: string };

/** An index as the callers hold it (a search's row, or the entity). */
type PlacedIndex = IndexState & { uid: string };

export function placedSearch(ctx: SearchContext, index: PlacedIndex, request: SearchRequest, parameterPrefix?: string): Promise<SearchResult> {
  return placed(ctx, index, { op: 'search', request }, parameterPrefix) as Promise<SearchResult>;
}

export function placedFilterIds(ctx: SearchContext, index: PlacedIndex, filter: SearchRequest['filter'], parameterPrefix?: string): Promise<string[]> {
  return placed(ctx, index, { op: 'filterIds', filter }, parameterPrefix) as Promise<string[]>;
}

async function placed(ctx: SearchContext, index: PlacedIndex, op: EngineOp, parameterPrefix?: string): Promise<unknown> {
  const rt = ctx.runtime;
  const placement = rt.placement;
  let holders = placement?.elsewhere(index.id);
  if (placement && !holders && !rt.engines.loaded(index.id)) {
    const warm = placement.warmPeers(index.id);
    if (warm.length) {
      void rt.engines.get(index, true).catch((err) => ctx.log.warn('search node could not load an engine it took over', { indexId: index.id, err }));
      holders = warm;
    }
  }
  if (placement && holders) {
    const call: EngineCall = { ...op, indexUid: index.uid, ...(parameterPrefix ? { parameterPrefix } : {}) };
    for (const node of holders) {
      let answer;
      try {
        answer = await callNode<unknown>(node, ENGINE_PATH, ctx.tenant, call, rt.internalSecret, placement.cfg.forwardTimeoutMs);
      } catch (err) {
        placement.counts.forwardFailures++;
        if ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED') placement.unreachableNode(node.id);
        ctx.log.warn('search forward failed; trying the next holder', { node: node.id, indexId: index.id, err });
        continue;
      }
      placement.counts.forwarded++;
      if ('ok' in answer) return answer.ok;
      const e = answer.error;
      throw new DomainError(e.code as ErrorCode, e.message, { ...(e.parameter ? { parameter: e.parameter } : {}), ...(e.meta ? { meta: e.meta } : {}) });
    }
    placement.counts.fallbacks++;
  }
  return runHere(ctx, index, op, parameterPrefix);
}

/** The call on this node's engine of the index. */
export async function runHere(ctx: SearchContext, index: IndexState, op: EngineOp, parameterPrefix?: string): Promise<unknown> {
  const engine = await ctx.runtime.engines.get(index);
  if (ctx.runtime.placement) ctx.runtime.placement.counts.served++;
  return engineCall(() => (op.op === 'search' ? engine.search(op.request) : engine.filterIds(op.filter)), parameterPrefix);
}
