// A search's engine work, on a node that holds the index: here when this node does (or placement is
// off), else forwarded to a holder (node-client.ts), trying the holders in turn and, when none
// answers, searching here (the engine loads here and is unloaded after the grace period). A holder's
// domain error comes back as the same DomainError, so its 503 + Retry-After (engine loading) or 400
// (a bad filter) reaches the client as if this node had answered.
import { DomainError, type ErrorCode } from '../../../lib/errors.js';
import type { SearchRequest, SearchResult } from '../../../lib/search-engine/types.js';
import type { SearchContext } from '../context.js';
import { engineCall } from '../errors.js';
import type { SearchableIndex } from '../indexes/index.service.js';
import { callNode } from './node-client.js';

export const ENGINE_PATH = '/internal/search/engine';

/** What a node asks a holder to run (the holder resolves the uid again, under the same tenant context). */
export interface EngineCall {
  indexUid: string;
  request: SearchRequest;
  parameterPrefix?: string;
}

export async function placedSearch(ctx: SearchContext, index: SearchableIndex, request: SearchRequest, parameterPrefix?: string): Promise<SearchResult> {
  const rt = ctx.runtime;
  const placement = rt.placement;
  const holders = placement?.elsewhere(index.id);
  if (placement && holders) {
    const call: EngineCall = { indexUid: index.uid, request, ...(parameterPrefix ? { parameterPrefix } : {}) };
    for (const node of holders) {
      let answer;
      try {
        answer = await callNode<SearchResult>(node, ENGINE_PATH, ctx.tenant, call, rt.internalSecret, placement.cfg.forwardTimeoutMs);
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
  return searchHere(ctx, index, request, parameterPrefix);
}

/** The search on this node's engine of the index. */
export async function searchHere(ctx: SearchContext, index: SearchableIndex, request: SearchRequest, parameterPrefix?: string): Promise<SearchResult> {
  const engine = await ctx.runtime.engines.get(index);
  if (ctx.runtime.placement) ctx.runtime.placement.counts.served++;
  return engineCall(() => engine.search(request), parameterPrefix);
}
