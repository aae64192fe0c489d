// Recommendations (ai.md, Recommendations): events recorded per app partition (each enqueues the
// model refresh, recommendation.job.ts), and recommendations read from the model: item-item
// collaborative filtering (sim(i → j): the share of i's time-decayed, weighted user vector that j
// shares) seeded by a user's history, an item or a session context, filled up by time-decayed
// popularity.
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { enqueueJob } from '../../../lib/jobs/index.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { AiContext } from '../context.js';
import { AI_READ, AI_WRITE, admitTextCall } from '../limits/limits.service.js';
import { round } from '../models/sentiment.js';
import { REC_EVENT_TYPES, RecEventEntity, type RecEventType } from './recommendation.entity.js';
import { NEIGHBOURS_PER_ITEM, REC_REFRESH_JOB, recDedupeKey } from './recommendation.job.js';
import { RecRepository } from './recommendation.repository.js';
import { eventWeight, matchesFilters, scoreNeighbours, vectorEntry, type Seed } from './recommendation.rules.js';
import type { Recommendation, RecommendationEventAck, RecommendationEventInput, RecommendationInput, RecommendationResult } from './recommendation.types.js';

export const MODEL_NAME = 'item-item-cf';
/** how long events gather before a refresh (one job serves them all) */
const REFRESH_DELAY_MS = 1000;
const SEEDS = 20;
const RESERVED_FILTERS = ['exclude_item_ids', 'include_seen'];

export async function recordEvent(ctx: AiContext, input: RecommendationEventInput): Promise<RecommendationEventAck> {
  await admitTextCall(ctx, [], 'eventType', AI_WRITE);
  for (const [k, v] of [['userId', input.userId], ['itemId', input.itemId]] as const) {
    if (!v.trim() || v.length > 255) throw new DomainError('VALIDATION_FAILED', `${k} must be 1 to 255 characters`, { parameter: k });
  }
  const type = input.eventType as RecEventType;
  if (!(REC_EVENT_TYPES as readonly string[]).includes(type)) throw new DomainError('VALIDATION_FAILED', `event_type must be one of ${REC_EVENT_TYPES.join(', ')}`, { parameter: 'eventType' });
  const rating = input.metadata?.rating;
  if (type === 'rating' && (typeof rating !== 'number' || rating < 1 || rating > 5)) throw new DomainError('VALIDATION_FAILED', 'a rating event needs metadata.rating, a number from 1 to 5', { parameter: 'metadata.rating' });
  const at = input.timestamp ?? new Date();
  if (Number.isNaN(at.getTime()) || at.getTime() > Date.now() + 5 * 60_000) throw new DomainError('VALIDATION_FAILED', 'timestamp must be an ISO 8601 time, not in the future', { parameter: 'timestamp' });
  if (input.metadata && JSON.stringify(input.metadata).length > 8192) throw new DomainError('VALIDATION_FAILED', 'metadata is larger than 8 KiB', { parameter: 'metadata' });
  const { appId, environment } = await appPartition(ctx);
  const ev = ctx.em.create(RecEventEntity, { appId, environment, userId: input.userId, itemId: input.itemId, eventType: type, weight: eventWeight(type, rating as number | undefined), occurredAt: at, metadata: input.metadata ?? null });
  await ctx.em.transactional(async (tx) => {
    // before the id is drawn: ids commit in order (the refresh's watermark relies on it)
    await new RecRepository(tx as EntityManager, { appId, environment }).lockEvents();
    tx.persist(ev);
    await tx.flush();
    const payload = { appId, environment };
    await enqueueJob(tx, 'ai', { kind: REC_REFRESH_JOB, payload, key: recDedupeKey(payload), dedupeKey: recDedupeKey(payload), runAt: new Date(Date.now() + REFRESH_DELAY_MS) });
  });
  return { id: String(ev.id), userId: ev.userId, eventType: ev.eventType, itemId: ev.itemId, timestamp: ev.occurredAt, weight: ev.weight, status: 'queued' };
}

export async function recommend(ctx: AiContext, input: RecommendationInput): Promise<RecommendationResult> {
  await admitTextCall(ctx, [], 'userId', AI_READ);
  const limit = input.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new DomainError('VALIDATION_FAILED', 'limit must be an integer from 1 to 100', { parameter: 'limit' });
  const { exclude, includeSeen, attributes } = parseFilters(input.filters ?? {});
  const repo = new RecRepository(ctx.em as EntityManager, await appPartition(ctx));
  // side by side (two pool connections): the model's version, every item of the user (strongest first)
  const model = await repo.model();
  const mine = input.userId ? await repo.userItems(input.userId) : [];

  // seeds: the user's strongest items, the given item, the context's items
  const seeds = new Map<string, number>();
  const seen = new Set<string>();
  if (input.userId) {
    // the SEEDS strongest seed, all are seen
    const strongest = mine.slice(0, SEEDS);
    const total = strongest.reduce((s, r) => s + vectorEntry(r.strength), 0) || 1;
    for (const r of strongest) seeds.set(r.item_id, vectorEntry(r.strength) / total);
    if (!includeSeen) for (const r of mine) seen.add(r.item_id);
  }
  const given = [input.itemId, ...(input.context ?? '').split(',')].map((s) => s?.trim()).filter((s): s is string => !!s);
  for (const item of given.slice(0, SEEDS)) {
    seeds.set(item, (seeds.get(item) ?? 0) + 1 / given.length);
    seen.add(item);
  }
  const excluded = new Set([...exclude, ...seen]);
  const seedList: Seed[] = [...seeds.entries()].map(([itemId, weight]) => ({ itemId, weight }));
  const neighbours = seedList.length ? await repo.neighbours(seedList.map((s) => s.itemId), NEIGHBOURS_PER_ITEM) : [];
  let scored = scoreNeighbours(seedList, neighbours.map((n) => ({ itemId: n.item_id, neighborId: n.neighbor_id, score: n.score })), excluded);

  const out: Recommendation[] = [];
  if (Object.keys(attributes).length && scored.length) {
    const attrs = new Map((await repo.items(scored.slice(0, limit * 5).map((s) => s.itemId))).map((r) => [r.item_id, r.attributes]));
    scored = scored.filter((s) => attrs.has(s.itemId) && matchesFilters(attrs.get(s.itemId)!, attributes));
  }
  const top = scored[0]?.score ?? 1;
  for (const s of scored.slice(0, limit)) out.push({ itemId: s.itemId, score: round(s.score / top, 4), reason: `similar to ${s.because}` });

  // popularity fills what collaborative filtering could not (a new user, a rare item)
  if (out.length < limit) {
    const have = new Set(out.map((r) => r.itemId));
    const scalar = Object.fromEntries(Object.entries(attributes).filter(([, v]) => !Array.isArray(v)));
    const popular = (await repo.popular(limit * 3 + excluded.size, scalar)).filter((p) => !have.has(p.item_id) && !excluded.has(p.item_id) && matchesFilters(p.attributes, attributes));
    const floor = out.length ? out[out.length - 1].score : 1;
    const best = popular[0]?.popularity || 1;
    // below every collaborative-filtering answer: half the lowest one at most
    const scale = out.length ? floor / 2 : 1;
    for (const p of popular.slice(0, limit - out.length)) out.push({ itemId: p.item_id, score: round((scale * p.popularity) / best, 4), reason: 'popular' });
  }
  return { id: newId('rec'), recommendations: out, modelVersion: model ? `item-item-v${model.version}` : 'item-item-v0', model: MODEL_NAME };
}

function parseFilters(f: Record<string, unknown>): { exclude: string[]; includeSeen: boolean; attributes: Record<string, unknown> } {
  const ex = f.exclude_item_ids ?? [];
  if (!Array.isArray(ex) || ex.some((x) => typeof x !== 'string')) throw new DomainError('VALIDATION_FAILED', 'filters.exclude_item_ids must be a list of item ids', { parameter: 'filters.exclude_item_ids' });
  const inc = f.include_seen ?? false;
  if (typeof inc !== 'boolean') throw new DomainError('VALIDATION_FAILED', 'filters.include_seen must be a boolean', { parameter: 'filters.include_seen' });
  const attributes: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (RESERVED_FILTERS.includes(k)) continue;
    const ok = (x: unknown) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';
    if (!(ok(v) || (Array.isArray(v) && v.every(ok)))) throw new DomainError('VALIDATION_FAILED', `filters.${k} must be a string, number, boolean or a list of them`, { parameter: `filters.${k}` });
    attributes[k] = v;
  }
  return { exclude: ex as string[], includeSeen: inc, attributes };
}
