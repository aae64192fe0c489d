// GET /v1/products/search and /search/suggest on the project's search engine: typo-tolerant,
// prefix-matching, ranked text search over the partition's active products, with facets for
// category, brand and price range, and suggestions.
import { DomainError } from '../../../lib/errors.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import { EngineError, type SearchHit } from '../../../lib/search-engine/index.js';
import type { CatalogContext } from '../context.js';
import { CategoryEntity } from '../categories/category.entity.js';
import { PRICE_BUCKETS } from './search.rules.js';
import { productEngines } from './search.engines.js';

export const SEARCH_SORTS = ['relevance', 'name', '-name', 'price', '-price', 'created_at', '-created_at'] as const;
export const MAX_PER_PAGE = 100;

export interface ProductSearchQuery {
  q?: string | null;
  category?: string | null;
  brand?: string | null;
  priceMin?: number | null;
  priceMax?: number | null;
  sort?: string | null;
  page: number;
  perPage: number;
}

export interface FacetCount {
  value: string;
  count: number;
}
export interface PriceRangeCount {
  min: number;
  max: number | null;
  count: number;
}

export interface ProductSearchResult {
  ids: string[];
  total: number;
  page: number;
  perPage: number;
  categories: FacetCount[];
  brands: FacetCount[];
  priceRanges: PriceRangeCount[];
  suggestions: string[];
}

/** A filter value as an engine string literal (quotes escaped). */
function lit(v: string): string {
  return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function price(v: number | null | undefined, parameter: string): number | undefined {
  if (v == null) return undefined;
  if (!Number.isSafeInteger(v) || v < 0) throw new DomainError('BAD_REQUEST', `${parameter} must be an integer >= 0 (cents)`, { parameter });
  return v;
}

function sortOf(s: string | null | undefined): string[] | undefined {
  const v = s ?? 'relevance';
  if (!(SEARCH_SORTS as readonly string[]).includes(v)) throw new DomainError('BAD_REQUEST', `sort must be one of ${SEARCH_SORTS.join(', ')}`, { parameter: 'sort' });
  if (v === 'relevance') return undefined;
  return [v.startsWith('-') ? `${v.slice(1)}:desc` : `${v}:asc`];
}

function counts(dist: Record<string, number> | undefined): FacetCount[] {
  return Object.entries(dist ?? {})
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
}

/** Suggestions: the names of the best hits that differ from the query, as a "did you mean" list. */
function suggestionsFrom(q: string, hits: SearchHit[], n = 5): string[] {
  const seen = new Set<string>([q.toLowerCase()]);
  const out: string[] = [];
  for (const h of hits) {
    const name = String(h.name ?? '');
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push(name);
    if (out.length === n) break;
  }
  return out;
}

/**
 * filters[category] takes a category's id or slug (as filter[category] of the product list does) or
 * its name (the facet's value): an id or slug of the caller's partition becomes the name the search
 * documents carry; anything else is matched as a name (none: no hits).
 */
async function categoryName(ctx: CatalogContext, value: string): Promise<string> {
  const c = await ctx.em.findOne(CategoryEntity, { $or: [{ id: value }, { slug: value }] }, { fields: ['name'] });
  return c?.name ?? value;
}

export async function searchProducts(ctx: CatalogContext, query: ProductSearchQuery): Promise<ProductSearchResult> {
  const { page, perPage } = query;
  if (!Number.isInteger(page) || page < 1) throw new DomainError('BAD_REQUEST', 'page must be an integer >= 1', { parameter: 'page' });
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) throw new DomainError('BAD_REQUEST', `per_page must be an integer from 1 to ${MAX_PER_PAGE}`, { parameter: 'perPage' });
  const q = (query.q ?? '').trim();
  if (q.length > 200) throw new DomainError('BAD_REQUEST', 'q is longer than 200 characters', { parameter: 'q' });
  const min = price(query.priceMin, 'filters[price][min]');
  const max = price(query.priceMax, 'filters[price][max]');
  const filter = ['status = "active"'];
  if (query.category) filter.push(`category = ${lit(await categoryName(ctx, query.category))}`);
  if (query.brand) filter.push(`brand = ${lit(query.brand)}`);
  if (min !== undefined) filter.push(`price >= ${min}`);
  if (max !== undefined) filter.push(`price <= ${max}`);
  const engine = await productEngines.engineFor(ctx.em, await appPartition(ctx));
  try {
    const r = engine.search({
      query: q,
      filter: filter.join(' AND '),
      facets: ['category', 'brand', 'price_range'],
      sort: sortOf(query.sort),
      offset: (page - 1) * perPage,
      limit: perPage,
      attributesToRetrieve: ['id', 'name'],
      sortFacetValuesBy: 'count',
    });
    const ranges = r.facetDistribution?.price_range ?? {};
    const priceRanges = PRICE_BUCKETS.map(([lo, hi]) => ({ min: lo, max: hi, count: ranges[`${lo}-${hi ?? ''}`] ?? 0 })).filter((b) => b.count > 0);
    return {
      ids: r.hits.map((h) => String(h.id)),
      total: r.estimatedTotalHits,
      page,
      perPage,
      categories: counts(r.facetDistribution?.category),
      brands: counts(r.facetDistribution?.brand),
      priceRanges,
      suggestions: q ? suggestionsFrom(q, r.hits) : [],
    };
  } catch (e) {
    if (e instanceof EngineError) throw new DomainError('BAD_REQUEST', e.message, { parameter: e.parameter ?? 'q' });
    throw e;
  }
}

export interface SuggestResult {
  suggestions: string[];
  products: { id: string; name: string }[];
}

/** Type-ahead: the best prefix/typo matches among active products; suggestions are their distinct names and categories. An empty q suggests nothing. */
export async function suggestProducts(ctx: CatalogContext, q: string, limit: number): Promise<SuggestResult> {
  const text = (q ?? '').trim();
  if (!text) return { suggestions: [], products: [] };
  if (text.length > 100) throw new DomainError('BAD_REQUEST', 'q is longer than 100 characters', { parameter: 'q' });
  if (!Number.isInteger(limit) || limit < 1 || limit > 20) throw new DomainError('BAD_REQUEST', 'limit must be an integer from 1 to 20', { parameter: 'limit' });
  const engine = await productEngines.engineFor(ctx.em, await appPartition(ctx));
  const r = engine.search({ query: text, filter: 'status = "active"', limit, attributesToRetrieve: ['id', 'name', 'category'] });
  const suggestions: string[] = [];
  const seen = new Set<string>();
  const folded = text.toLowerCase();
  for (const h of r.hits) {
    for (const v of [String(h.name ?? ''), ...((h.category as string[] | undefined) ?? [])]) {
      const k = v.toLowerCase();
      if (!v || seen.has(k) || !k.split(/\s+/).some((w) => w.startsWith(folded.split(/\s+/).pop() ?? ''))) continue;
      seen.add(k);
      suggestions.push(v);
    }
  }
  return { suggestions: suggestions.slice(0, limit), products: r.hits.map((h) => ({ id: String(h.id), name: String(h.name ?? '') })) };
}
