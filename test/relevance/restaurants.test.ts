// Facets on restaurants.json (200): distribution and filters agree with brute-force counts, under a
// query, a filter and both.
import type { Document } from '../../lib/search-engine/index.js';
import { tokenize } from '../../lib/search-engine/tokenizer.js';
import { indexOf, load } from './datasets.js';

const restaurants = load('restaurants.json');
const e = indexOf(restaurants, { searchableAttributes: ['name', 'description', 'categories'], filterableAttributes: ['categories', 'picture_author', 'id'] }, 'id', 30);

function count(docs: Document[], field: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of docs) if (typeof d[field] === 'string') out[d[field] as string] = (out[d[field] as string] ?? 0) + 1;
  return out;
}

describe('facets on restaurants', () => {
  test('placeholder search: counts of every category', () => {
    const r = e.search({ facets: ['categories'], maxValuesPerFacet: 1000, limit: 0 });
    expect(r.facetDistribution!.categories).toEqual(count(restaurants, 'categories'));
    expect(r.estimatedTotalHits).toBe(restaurants.length);
  });

  test('a query restricts the counts to its hits', () => {
    const r = e.search({ query: 'food', facets: ['categories'], maxValuesPerFacet: 1000, limit: 0 });
    const hits = restaurants.filter((d) => ['name', 'description', 'categories'].some((f) => tokenize(String(d[f] ?? '')).some((t) => t.startsWith('food'))));
    expect(r.estimatedTotalHits).toBe(hits.length);
    expect(r.facetDistribution!.categories).toEqual(count(hits, 'categories'));
  });

  test('a filter and facet counts agree value by value', () => {
    const all = e.search({ facets: ['categories'], maxValuesPerFacet: 1000, limit: 0 }).facetDistribution!.categories;
    for (const [value, n] of Object.entries(all)) expect(e.search({ filter: `categories = "${value}"`, limit: 0 }).estimatedTotalHits).toBe(n);
  });

  test('numeric facet stats on ids under a filter', () => {
    const r = e.search({ filter: 'id < 50 AND NOT categories = "Italian food"', facets: ['id'], limit: 0 });
    const ids = restaurants.filter((d) => (d.id as number) < 50 && d.categories !== 'Italian food').map((d) => d.id as number);
    expect(r.facetStats!.id).toEqual({ min: Math.min(...ids), max: Math.max(...ids), sum: ids.reduce((a, b) => a + b, 0), avg: ids.reduce((a, b) => a + b, 0) / ids.length });
  });

  test('facet values sorted by count, capped', () => {
    const r = e.search({ facets: ['categories'], sortFacetValuesBy: 'count', maxValuesPerFacet: 3, limit: 0 });
    const counts = Object.values(r.facetDistribution!.categories);
    expect(counts).toHaveLength(3);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });
});
