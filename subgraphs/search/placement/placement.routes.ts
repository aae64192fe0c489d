// The search nodes' internal routes, on the subgraph's own port (lib/subgraph.ts `routes`): only
// requests signed with INTERNAL_SECRET for the search audience are served, and the signed tenant
// context is the one the forwarding node received, so a forwarded search reaches exactly the indexes
// its caller could (the uid is resolved again under that context: a foreign index is not found).
//  POST /internal/search/engine  a forwarded search or filter (placed-search.ts), answered by this node's engine
//  POST /internal/search/loaded  the engines this node has loaded and its placement figures (service callers)
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '../../../lib/errors.js';
import { MiB, readBody, sendJson } from '../../../lib/http.js';
import type { SubgraphContext, SubgraphRoute } from '../../../lib/subgraph.js';
import { requireRoles } from '../../../lib/subgraph.js';
import { hasScope } from '../../../lib/tenant.js';
import type { SearchContext } from '../context.js';
import { getSearchableIndex } from '../indexes/index.service.js';
import type { SearchRuntime } from '../runtime.js';
import type { NodeAnswer } from './node-client.js';
import { ENGINE_PATH, runHere, type EngineCall } from './placed-search.js';

type Context = (raw: Buffer | string) => Promise<SubgraphContext>;

async function answer(res: ServerResponse, fn: () => Promise<unknown>): Promise<void> {
  let out: NodeAnswer<unknown>;
  try {
    out = { ok: await fn() };
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    out = { error: { code: e.code, message: e.message, ...(e.opts.parameter ? { parameter: e.opts.parameter } : {}), ...(e.opts.meta ? { meta: e.opts.meta } : {}) } };
  }
  sendJson(res, 200, out);
}

/** The verified context of a node's request, or a 401 answered (unsigned, expired, another audience or body). */
async function verified(req: IncomingMessage, res: ServerResponse, context: Context): Promise<{ ctx: SubgraphContext; raw: Buffer } | undefined> {
  const raw = await readBody(req, MiB);
  try {
    return { ctx: await context(raw), raw };
  } catch (e) {
    sendJson(res, 401, { errors: [{ message: (e as Error).message, extensions: { code: 'UNAUTHENTICATED', status: 401 } }] });
    return undefined;
  }
}

export function placementRoutes(rt: SearchRuntime): Record<string, SubgraphRoute> {
  return {
    [ENGINE_PATH]: async (req, res, context) => {
      const v = await verified(req, res, context);
      if (!v) return;
      const ctx = v.ctx as SearchContext;
      await answer(res, async () => {
        const call = JSON.parse(v.raw.toString('utf8')) as EngineCall;
        // the scope the forwarding node checked: search:read, or search:write for delete by filter's check
        if (call?.op !== 'filterIds' || !hasScope(ctx.tenant, 'search:write')) requireRoles(ctx.tenant, ['search:read']);
        if (typeof call?.indexUid !== 'string' || (call.op === 'search' ? typeof call.request !== 'object' : call.op !== 'filterIds')) {
          throw new DomainError('BAD_REQUEST', 'indexUid and a search request or filter are required');
        }
        const index = await getSearchableIndex(ctx, call.indexUid);
        return runHere(ctx, index, call, call.parameterPrefix);
      });
    },
    '/internal/search/loaded': async (req, res, context) => {
      const v = await verified(req, res, context);
      if (!v) return;
      if (v.ctx.tenant.kind !== 'service') return sendJson(res, 403, { errors: [{ message: 'search nodes only', extensions: { code: 'FORBIDDEN', status: 403 } }] });
      await answer(res, async () => ({ node: rt.placement?.self.id ?? null, indexIds: rt.engines.loadedIds(), engines: rt.engines.stats(), placement: rt.placement?.stats() ?? null }));
    },
  };
}
