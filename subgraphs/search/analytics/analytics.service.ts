// Search analytics (docs/search.md, "Analytics"): client events, and aggregates over a period.
// Positions are 1-based (the first hit is 1). Impressions are the hits this service returned
// (the first 100 of each search); clicks are click events posted by clients.
import { DomainError } from '../../../lib/errors.js';
import type { SearchContext } from '../context.js';
import { one, rows } from '../db.js';
import { getIndex } from '../indexes/index.service.js';
import { T } from '../sql.js';
import { normaliseQuery } from './analytics.buffer.js';
import { appPartition } from '../../../lib/tenant-entity.js';

export const PERIODS = { '24h': '24 hours', '7d': '7 days', '30d': '30 days', '90d': '90 days' } as const;
export type Period = keyof typeof PERIODS;
export const EVENT_TYPES = ['click', 'search', 'conversion', 'view'] as const;
export const MAX_ANALYTICS_LIMIT = 1000;

function period(p: string | null | undefined): Period {
  const v = p ?? '7d';
  if (!(v in PERIODS)) throw new DomainError('BAD_REQUEST', `period must be one of ${Object.keys(PERIODS).join(', ')}`, { parameter: 'period' });
  return v as Period;
}

function limitOf(l: number | null | undefined): number {
  const v = l ?? 10;
  if (!Number.isInteger(v) || v < 1 || v > MAX_ANALYTICS_LIMIT) throw new DomainError('BAD_REQUEST', `limit must be an integer from 1 to ${MAX_ANALYTICS_LIMIT}`, { parameter: 'limit' });
  return v;
}

const round = (n: number, d = 4) => Math.round(n * 10 ** d) / 10 ** d;

export interface EventInput {
  eventType: string;
  indexUid: string;
  query?: string | null;
  documentId?: string | null;
  position?: number | null;
  userId?: string | null;
  sessionId?: string | null;
}

function optionalText(v: string | null | undefined, parameter: string, max: number): string | null {
  if (v == null || v === '') return null;
  if (typeof v !== 'string' || v.length > max) throw new DomainError('VALIDATION_FAILED', `${parameter} must be a string of at most ${max} characters`, { parameter });
  return v;
}

export async function recordEvent(ctx: SearchContext, e: EventInput) {
  if (!(EVENT_TYPES as readonly string[]).includes(e.eventType)) {
    throw new DomainError('VALIDATION_FAILED', `event_type must be one of ${EVENT_TYPES.join(', ')}`, { parameter: 'eventType' });
  }
  const index = await getIndex(ctx, e.indexUid);
  const { appId, environment } = await appPartition(ctx);
  const documentId = optionalText(e.documentId, 'documentId', 511);
  const query = e.query == null ? null : normaliseQuery(optionalText(e.query, 'query', 1000) ?? '');
  const userId = optionalText(e.userId, 'userId', 256);
  const sessionId = optionalText(e.sessionId, 'sessionId', 256);
  if (e.position != null && (!Number.isInteger(e.position) || e.position < 1 || e.position > 100_000)) {
    throw new DomainError('VALIDATION_FAILED', 'position must be an integer from 1 (the first hit)', { parameter: 'position' });
  }
  if (e.eventType !== 'search' && !documentId) throw new DomainError('VALIDATION_FAILED', `document_id is required for ${e.eventType} events`, { parameter: 'documentId' });
  if (e.eventType === 'click' && e.position == null) throw new DomainError('VALIDATION_FAILED', 'position is required for click events', { parameter: 'position' });
  if (e.eventType === 'search' && query === null) throw new DomainError('VALIDATION_FAILED', 'query is required for search events', { parameter: 'query' });
  const pool = ctx.runtime.pool;
  // A client-posted search is counted with the service's own searches (its hit count unknown).
  const row =
    e.eventType === 'search'
      ? await one(
          pool,
          `insert into ${T.queries} (app_id, environment, index_id, query, hits, hit_ids, user_id, session_id, created_at)
           values ($1, $2, $3, $4, null, null, $5, $6, clock_timestamp()) returning id, created_at`,
          [appId, environment, index.id, query, userId, sessionId],
        )
      : await one(
          pool,
          `insert into ${T.events} (app_id, environment, index_id, event_type, query, document_id, position, user_id, session_id, created_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, clock_timestamp()) returning id, created_at`,
          [appId, environment, index.id, e.eventType, query, documentId, e.position ?? null, userId, sessionId],
        );
  return {
    id: `${e.eventType === 'search' ? 'sq' : 'ev'}_${row!.id}`,
    eventType: e.eventType,
    indexUid: index.uid,
    query,
    documentId,
    position: e.position ?? null,
    userId,
    sessionId,
    createdAt: row!.created_at as Date,
  };
}

async function scope(ctx: SearchContext, uid: string, p: string | null | undefined) {
  const index = await getIndex(ctx, uid);
  // This process's buffered searches count too.
  await ctx.runtime.analytics.flush();
  const per = period(p);
  return { index, per, interval: PERIODS[per] };
}

export async function popularSearches(ctx: SearchContext, uid: string, p?: string | null, l?: number | null) {
  const limit = limitOf(l);
  const { index, per, interval } = await scope(ctx, uid, p);
  const pool = ctx.runtime.pool;
  const list = await rows<{ query: string; count: string; unique_users: string; avg_click_position: string | null }>(
    pool,
    `with s as (select query, user_id, session_id from ${T.queries} where index_id = $1 and created_at >= now() - $2::interval and query <> ''),
          c as (select query, avg(position) as avg_position from ${T.events}
                 where index_id = $1 and event_type = 'click' and created_at >= now() - $2::interval and query is not null group by query)
     select s.query, count(*) as count, count(distinct coalesce(s.user_id, 'session:' || s.session_id)) as unique_users, max(c.avg_position) as avg_click_position
       from s left join c on c.query = s.query
      group by s.query order by count desc, s.query limit $3`,
    [index.id, interval, limit],
  );
  const total = await one<{ n: string }>(pool, `select count(*) as n from ${T.queries} where index_id = $1 and created_at >= now() - $2::interval`, [index.id, interval]);
  return {
    indexUid: index.uid,
    period: per,
    totalSearches: Number(total!.n),
    popularSearches: list.map((r) => ({
      query: r.query,
      count: Number(r.count),
      uniqueUsers: Number(r.unique_users),
      avgClickPosition: r.avg_click_position === null ? null : round(Number(r.avg_click_position), 2),
    })),
  };
}

export async function noResultSearches(ctx: SearchContext, uid: string, p?: string | null, l?: number | null) {
  const limit = limitOf(l);
  const { index, per, interval } = await scope(ctx, uid, p);
  const pool = ctx.runtime.pool;
  const list = await rows<{ query: string; count: string; last_searched_at: Date }>(
    pool,
    `select query, count(*) as count, max(created_at) as last_searched_at from ${T.queries}
      where index_id = $1 and created_at >= now() - $2::interval and hits = 0
      group by query order by count desc, last_searched_at desc limit $3`,
    [index.id, interval, limit],
  );
  const total = await one<{ n: string }>(pool, `select count(*) as n from ${T.queries} where index_id = $1 and created_at >= now() - $2::interval and hits = 0`, [index.id, interval]);
  return {
    indexUid: index.uid,
    period: per,
    totalNoResultSearches: Number(total!.n),
    noResultSearches: list.map((r) => ({ query: r.query, count: Number(r.count), lastSearchedAt: r.last_searched_at })),
  };
}

export async function clicks(ctx: SearchContext, uid: string, p?: string | null, l?: number | null) {
  const limit = limitOf(l);
  const { index, per, interval } = await scope(ctx, uid, p);
  const pool = ctx.runtime.pool;
  const list = await rows<{ document_id: string; clicks: string; impressions: string; avg_position: string | null }>(
    pool,
    `with i as (select d.doc, count(*) as impressions
                  from ${T.queries} q, jsonb_array_elements_text(q.hit_ids) as d(doc)
                 where q.index_id = $1 and q.created_at >= now() - $2::interval and q.hit_ids is not null group by d.doc),
          c as (select document_id as doc, count(*) as clicks, avg(position) as avg_position from ${T.events}
                 where index_id = $1 and event_type = 'click' and created_at >= now() - $2::interval group by document_id)
     select coalesce(c.doc, i.doc) as document_id, coalesce(c.clicks, 0) as clicks, coalesce(i.impressions, 0) as impressions, c.avg_position
       from c full join i on i.doc = c.doc
      order by clicks desc, impressions desc, document_id limit $3`,
    [index.id, interval, limit],
  );
  const totals = await one<{ clicks: string; impressions: string | null }>(
    pool,
    `select (select count(*) from ${T.events} where index_id = $1 and event_type = 'click' and created_at >= now() - $2::interval) as clicks,
            (select sum(jsonb_array_length(hit_ids)) from ${T.queries} where index_id = $1 and created_at >= now() - $2::interval and hit_ids is not null) as impressions`,
    [index.id, interval],
  );
  const totalClicks = Number(totals!.clicks);
  const totalImpressions = Number(totals!.impressions ?? 0);
  return {
    indexUid: index.uid,
    period: per,
    totalClicks,
    totalImpressions,
    avgCtr: totalImpressions ? round(totalClicks / totalImpressions) : 0,
    clickData: list.map((r) => {
      const c = Number(r.clicks);
      const imp = Number(r.impressions);
      return { documentId: r.document_id, clicks: c, impressions: imp, ctr: imp ? round(c / imp) : 0, avgPosition: r.avg_position === null ? null : round(Number(r.avg_position), 2) };
    }),
  };
}
