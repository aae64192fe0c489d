// The one statement that reads every candidate price of many products at once: a request row per
// (product, quantity) joined laterally to each price source. Set-based, so 100 products cost one
// round trip, not 100. Tenant values come from appPartition(ctx) (raw SQL bypasses the ORM filter);
// the price tables are reached only through the tenant's products.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { ProductEntity } from '../products/product.entity.js';
import { tableOf } from '../sql.js';
import { CustomerPriceEntity, PriceTierEntity, ProductPriceEntity, ScheduledPriceEntity } from './price.entity.js';
import type { Candidate, PriceCandidates } from './pricing.rules.js';

export interface CandidateRequest {
  productId: string;
  quantity: number;
}

export interface CandidateQuery {
  currency: string;
  customerId: string | null;
  customerGroupIds: string[];
  at: Date;
}

export interface CandidateRow {
  productId: string;
  quantity: number;
  /** false: no live product of the app has this id */
  found: boolean;
  candidates: PriceCandidates;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function candidate(id: unknown, amount: unknown, compareAt?: unknown): Candidate | null {
  return amount === null || amount === undefined ? null : { id: id == null ? null : String(id), amount: Number(amount), compareAt: num(compareAt) };
}

export async function loadCandidates(em: EntityManager, part: AppPartition, requests: CandidateRequest[], q: CandidateQuery): Promise<CandidateRow[]> {
  if (requests.length === 0) return [];
  const P = tableOf(em, ProductEntity);
  const rows = (await em.execute(
    `with req as (
       select r.ord, r.product_id, r.quantity from jsonb_to_recordset(?::jsonb) as r(ord int, product_id text, quantity int)
     )
     select req.ord, req.product_id, req.quantity, p.id is not null as found,
            cp.id as customer_id, cp.amount as customer_amount,
            gp.id as group_id, gp.amount as group_amount,
            sp.id as scheduled_id, sp.amount as scheduled_amount, sp.compare_at_amount as scheduled_compare_at,
            pt.id as tier_id, pt.amount as tier_amount,
            coalesce(pp.amount, case when p.price_currency = ? then p.price_amount end) as base_amount,
            case when pp.id is not null then pp.compare_at_amount when p.price_currency = ? then p.compare_at_amount end as base_compare_at
       from req
       left join ${P} p on p.id = req.product_id and p.app_id = ? and p.environment = ? and p.deleted_at is null
       left join ${tableOf(em, ProductPriceEntity)} pp on pp.product_id = p.id and pp.currency = ?
       left join lateral (
         select c.id, c.amount from ${tableOf(em, CustomerPriceEntity)} c
          where c.product_id = p.id and c.currency = ? and c.customer_id = ? order by c.amount, c.id limit 1
       ) cp on true
       left join lateral (
         select c.id, c.amount from ${tableOf(em, CustomerPriceEntity)} c
          where c.product_id = p.id and c.currency = ? and c.customer_group_id in (select jsonb_array_elements_text(?::jsonb))
          order by c.amount, c.id limit 1
       ) gp on true
       left join lateral (
         select s.id, s.amount, s.compare_at_amount from ${tableOf(em, ScheduledPriceEntity)} s
          where s.product_id = p.id and s.currency = ? and s.starts_at <= ?::timestamptz and (s.ends_at is null or s.ends_at > ?::timestamptz)
          order by s.starts_at desc, s.created_at desc, s.id desc limit 1
       ) sp on true
       left join lateral (
         select t.id, t.amount from ${tableOf(em, PriceTierEntity)} t
          where t.product_id = p.id and t.currency = ? and t.min_quantity <= req.quantity and (t.max_quantity is null or t.max_quantity >= req.quantity)
          order by t.min_quantity desc limit 1
       ) pt on true
      order by req.ord`,
    [
      JSON.stringify(requests.map((r, ord) => ({ ord, product_id: r.productId, quantity: r.quantity }))),
      q.currency,
      q.currency,
      part.appId,
      part.environment,
      q.currency,
      q.currency,
      q.customerId,
      q.currency,
      JSON.stringify(q.customerGroupIds),
      q.currency,
      q.at.toISOString(),
      q.at.toISOString(),
      q.currency,
    ],
    'all',
  )) as Record<string, unknown>[];
  return rows.map((r) => ({
    productId: String(r.product_id),
    quantity: Number(r.quantity),
    found: Boolean(r.found),
    candidates: {
      customer: candidate(r.customer_id, r.customer_amount),
      customer_group: candidate(r.group_id, r.group_amount),
      scheduled: candidate(r.scheduled_id, r.scheduled_amount, r.scheduled_compare_at),
      tier: candidate(r.tier_id, r.tier_amount),
      base: candidate(null, r.base_amount, r.base_compare_at),
    },
  }));
}

/** The currencies a product has any price in (for the message of a missing-currency error). */
export async function currenciesOf(em: EntityManager, productId: string): Promise<string[]> {
  const rows = (await em.execute(
    `select price_currency as c from ${tableOf(em, ProductEntity)} where id = ? and price_currency is not null
     union select currency from ${tableOf(em, ProductPriceEntity)} where product_id = ?
     union select currency from ${tableOf(em, PriceTierEntity)} where product_id = ?
     union select currency from ${tableOf(em, CustomerPriceEntity)} where product_id = ?
     union select currency from ${tableOf(em, ScheduledPriceEntity)} where product_id = ?
     order by 1`,
    [productId, productId, productId, productId, productId],
    'all',
  )) as { c: string }[];
  return rows.map((r) => r.c);
}
