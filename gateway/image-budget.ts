// Image work has a budget of its own. Decoding and analysing an image costs ~10–1000× the CPU of
// an ordinary request, so the general rate limit (requests per minute) would let one key buy
// minutes of CPU a minute. Every root field that uploads an image or runs a vision model is charged
// to a per-key (per-user for JWT callers) budget of IMAGE_BUDGET_PER_MINUTE, once per field in the
// operation; over it, the whole operation is refused with 429 RATE_LIMITED before any subgraph runs.
import { GraphQLError, Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { HeaderMap, type GraphQLRequestContext } from '@apollo/server';
import type { RateLimiter, RateLimitResult } from '../lib/rate-limit.js';
import type { GatewayContext } from './data-source.js';
import type { OperationHooks, OperationPlugin } from './operation-plugins.js';

/** Root fields whose work is decoding or analysing an image. */
export const IMAGE_WORK_FIELDS: ReadonlySet<string> = new Set([
  'recordProductImageUpload',
  'visualProductSearch',
  'visualProductSearchUpload',
  'processProductFile',
  'imageClassify',
  'imageDetect',
  'imageOcr',
  'moderateImage',
]);

/** How many image-work root fields the selection holds (aliases count each; fragments followed). */
export function imageWorkCount(set: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, seen = new Set<string>()): number {
  let n = 0;
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) n += IMAGE_WORK_FIELDS.has(s.name.value) ? 1 : 0;
    else if (s.kind === Kind.INLINE_FRAGMENT) n += imageWorkCount(s.selectionSet, fragments, seen);
    else if (!seen.has(s.name.value) && fragments[s.name.value]) {
      seen.add(s.name.value);
      n += imageWorkCount(fragments[s.name.value].selectionSet, fragments, seen);
    }
  }
  return n;
}

function budgetKey(ctx: GatewayContext): string | null {
  const t = ctx.tenant;
  if (t.kind === 'key' && t.keyId) return `image:key:${t.keyId}`;
  if (t.kind === 'user' && t.userId) return `image:user:${t.userId}`;
  if (t.clientAddress) return `image:addr:${t.clientAddress}`;
  return null;
}

export function imageBudgetPlugin(limiter: RateLimiter, perMinute: number): OperationPlugin<GatewayContext> {
  const refused = new WeakMap<object, RateLimitResult>();
  /** image calls per operation node: Apollo's document store hands the same parsed document to every request of one query text */
  const counts = new WeakMap<OperationDefinitionNode, number>();
  const countOf = (op: OperationDefinitionNode, document: DocumentNode): number => {
    let n = counts.get(op);
    if (n === undefined) {
      const fragments = Object.fromEntries(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
      counts.set(op, (n = imageWorkCount(op.selectionSet, fragments)));
    }
    return n;
  };
  /** one hit of the key's budget per image call; stops at the first refused */
  const spend = async (rc: GraphQLRequestContext<GatewayContext>, key: string, n: number) => {
    for (let i = 0; i < n; i++) {
      const r = await limiter.hit(key, perMinute);
      if (!r.allowed) return void refused.set(rc, r);
    }
  };
  // one set of hooks for every request (its state is in `refused`, by request); an operation without image work waits for nothing
  const hooks: OperationHooks<GatewayContext> = {
    didResolveOperation(rc) {
      const op = rc.operation;
      if (!op || op.operation === 'subscription') return;
      const n = countOf(op, rc.document);
      const key = n ? budgetKey(rc.contextValue) : null;
      if (key) return spend(rc, key, n);
    },
    responseForOperation(rc) {
      const r = refused.get(rc);
      if (!r) return null;
      const headers = new HeaderMap([['retry-after', String(Math.max(1, Math.ceil(r.resetMs / 1000)))]]);
      const message = `The image budget of ${perMinute} image uploads and vision calls per minute is spent; retry in ${Math.ceil(r.resetMs / 1000)} s`;
      const error = new GraphQLError(message, { extensions: { code: 'RATE_LIMITED', status: 429 } });
      return { http: { status: 429, headers }, body: { kind: 'single', singleResult: { errors: [error.toJSON()] } } };
    },
  };
  return { requestDidStart: () => hooks };
}
