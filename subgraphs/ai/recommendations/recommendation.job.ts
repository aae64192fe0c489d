// The job that keeps an app partition's recommendation model current (kernel queue; one at a time
// per partition, by its key). Recording an event enqueues it (deduplicated while one waits); it
// reads the events after the model's watermark in batches and, per batch in one transaction:
// updates the users' time-decayed strengths, the items' norms and popularity, the pair dot
// products (only pairs of the batch's users' items change), the top-k neighbours of every item
// whose pairs changed, the scores other items hold for items whose norm changed, and the model's
// version and watermark. Incremental: the work is proportional to the new events' users, not to
// the log.
import type { EntityManager } from '@mikro-orm/postgresql';
import { releaseDedupe, type JobKind } from '../../../lib/jobs/index.js';
import type { WorkerDeps } from '../../../lib/subgraph.js';
import type { Environment } from '../../../lib/tenant.js';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { RecRepository } from './recommendation.repository.js';
import { decayed, pairDeltas } from './recommendation.rules.js';

export const REC_REFRESH_JOB = 'ai.recommendations.refresh';
/** events per transaction */
const BATCH = 20_000;
/** neighbours kept per item */
export const NEIGHBOURS_PER_ITEM = 50;

export interface RecRefreshPayload {
  appId: string;
  environment: Environment;
}

export const recDedupeKey = (p: RecRefreshPayload) => `ai.recs:${p.appId}:${p.environment}`;

export function recRefreshJobKind(deps: WorkerDeps): JobKind<RecRefreshPayload> {
  return {
    kind: REC_REFRESH_JOB,
    maxAttempts: 5,
    leaseMs: 120_000,
    backoff: { baseMs: 1000, maxMs: 30_000 },
    async handle({ job, complete }) {
      const em = deps.orm.em.fork() as EntityManager;
      // events recorded from now on get a successor job instead of being deduplicated against this one
      await releaseDedupe(em, 'ai', job.id);
      await refreshModel(em, job.payload, { complete });
    },
  };
}

/**
 * Brings the partition's model up to its newest event: one transaction per batch (`batch` events),
 * `complete` (the job's completion) in the last one. Safe to run twice at once: batches take the
 * partition's model lock and read the watermark under it.
 */
export async function refreshModel(em: EntityManager, partition: AppPartition, o: { batch?: number; complete?: (tx: EntityManager) => Promise<void> } = {}): Promise<void> {
  for (;;) {
    const done = await em.transactional(async (tx) => {
      const more = await refreshBatch(new RecRepository(tx as EntityManager, partition), o.batch ?? BATCH);
      if (!more) await o.complete?.(tx as EntityManager);
      return !more;
    });
    if (done) return;
  }
}

/** One batch of events into the model; true when a full batch was read (more may follow). */
export async function refreshBatch(repo: RecRepository, batch = BATCH): Promise<boolean> {
  await repo.lockModel();
  const model = await repo.model();
  const events = await repo.eventsAfter(model?.last_event_id ?? '0', batch);
  if (!events.length) return false;

  const delta = new Map<string, Map<string, { s: number; t: Date }>>();
  const itemEvents = new Map<string, { e: number; a: Record<string, unknown> }>();
  for (const e of events) {
    const u = delta.get(e.user_id) ?? new Map();
    const cur = u.get(e.item_id) ?? { s: 0, t: new Date(0) };
    cur.s += decayed(e.weight, new Date(e.occurred_at));
    if (new Date(e.occurred_at) > cur.t) cur.t = new Date(e.occurred_at);
    u.set(e.item_id, cur);
    delta.set(e.user_id, u);
    const it = itemEvents.get(e.item_id) ?? { e: 0, a: {} };
    it.e += 1;
    Object.assign(it.a, scalarAttributes(e.metadata));
    itemEvents.set(e.item_id, it);
  }

  const before = new Map<string, Map<string, number>>();
  for (const r of await repo.strengths([...delta.keys()])) {
    const m = before.get(r.user_id) ?? new Map();
    m.set(r.item_id, r.strength);
    before.set(r.user_id, m);
  }

  const strengths: { u: string; i: string; s: number; t: string }[] = [];
  const items = new Map<string, { i: string; n: number; p: number; e: number; a: Record<string, unknown> }>();
  const pairs = new Map<string, { i: string; j: string; d: number }>();
  for (const [user, changes] of delta) {
    const b = before.get(user) ?? new Map<string, number>();
    const a = new Map(b);
    for (const [item, c] of changes) {
      const old = b.get(item) ?? 0;
      const now = old + c.s;
      a.set(item, now);
      strengths.push({ u: user, i: item, s: now, t: c.t.toISOString() });
      const it = items.get(item) ?? { i: item, n: 0, p: 0, e: itemEvents.get(item)!.e, a: itemEvents.get(item)!.a };
      it.n += now * now - old * old;
      it.p += c.s;
      items.set(item, it);
    }
    pairDeltas(b, a, new Set(changes.keys()), (i, j, d) => {
      const k = `${i}\u0000${j}`;
      const p = pairs.get(k);
      if (p) p.d += d;
      else pairs.set(k, { i, j, d });
    });
  }

  await repo.saveStrengths(strengths);
  await repo.addItems([...items.values()]);
  await repo.addPairs([...pairs.values()]);
  const touched = new Set<string>(items.keys());
  for (const p of pairs.values()) touched.add(p.i).add(p.j);
  await repo.refreshNeighbours([...touched], [...items.keys()], NEIGHBOURS_PER_ITEM);
  await repo.saveModel(events[events.length - 1].id, events.length);
  return events.length === batch;
}

/** The scalar fields of an event's metadata (strings, numbers, booleans), rating excepted. */
export function scalarAttributes(m: Record<string, unknown> | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m ?? {})) if (k !== 'rating' && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) out[k] = v;
  return out;
}
