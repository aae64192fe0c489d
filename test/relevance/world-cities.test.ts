// Geo on world-cities.json (4,449 cities): _geoRadius and _geoPoint against a brute-force haversine,
// and filter precedence against a brute-force evaluation.
import type { Document } from '../../lib/search-engine/index.js';
import { indexOf, load } from './datasets.js';

const cities = load('world-cities.json');
const e = indexOf(
  cities,
  {
    searchableAttributes: ['name', 'country'],
    filterableAttributes: ['_geo', 'country', 'population', 'country code'],
    sortableAttributes: ['_geo', 'population'],
  },
  'geonameid',
  500,
);

function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(a));
}
const geo = (c: Document) => c._geo as { lat: number; lng: number };
const CENTRES: [string, number, number, number][] = [
  ['Paris', 48.8566, 2.3522, 500_000],
  ['Tokyo', 35.6762, 139.6503, 800_000],
  ['Quito (equator)', -0.1807, -78.4678, 1_500_000],
  ['Auckland', -36.8485, 174.7633, 2_000_000],
  ['Fiji (antimeridian)', -17.7134, 178.065, 3_000_000],
  ['Reykjavik (north)', 64.1466, -21.9426, 1_000_000],
];

describe('_geoRadius + _geoPoint on world cities', () => {
  test.each(CENTRES)('%s: the same cities as brute force, in distance order', (_name, lat, lng, radius) => {
    const expected = cities
      .map((c) => ({ id: c.geonameid as string, d: haversine(lat, lng, geo(c).lat, geo(c).lng) }))
      .filter((x) => x.d <= radius)
      .sort((a, b) => a.d - b.d);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(1000);
    const r = e.search({ filter: `_geoRadius(${lat}, ${lng}, ${radius})`, sort: [`_geoPoint(${lat}, ${lng}):asc`], limit: 1000 });
    expect(r.estimatedTotalHits).toBe(expected.length);
    expect(r.hits.map((h) => h.geonameid)).toEqual(expected.map((x) => x.id));
    r.hits.forEach((h, i) => expect(Math.abs((h._geoDistance as number) - expected[i].d)).toBeLessThanOrEqual(0.5));
  });

  test('descending geo sort is the exact reverse for distinct distances', () => {
    const [, lat, lng, radius] = CENTRES[0];
    const asc = e.search({ filter: `_geoRadius(${lat}, ${lng}, ${radius})`, sort: [`_geoPoint(${lat}, ${lng}):asc`], limit: 1000 }).hits.map((h) => h.geonameid);
    const desc = e.search({ filter: `_geoRadius(${lat}, ${lng}, ${radius})`, sort: [`_geoPoint(${lat}, ${lng}):desc`], limit: 1000 }).hits.map((h) => h.geonameid);
    expect(desc).toEqual([...asc].reverse());
  });

  test('nearest cities to a point with no filter: the global top 10', () => {
    const [lat, lng] = [40.4168, -3.7038];
    const expected = [...cities].sort((a, b) => haversine(lat, lng, geo(a).lat, geo(a).lng) - haversine(lat, lng, geo(b).lat, geo(b).lng)).slice(0, 10);
    const r = e.search({ sort: [`_geoPoint(${lat}, ${lng}):asc`], limit: 10 });
    expect(r.hits.map((h) => h.geonameid)).toEqual(expected.map((c) => c.geonameid));
  });

  test('a text query with a geo sort: matches only, nearest first', () => {
    const r = e.search({ query: 'san', sort: ['_geoPoint(37.77, -122.42):asc'], limit: 5 });
    const d = r.hits.map((h) => h._geoDistance as number);
    expect(d).toEqual([...d].sort((a, b) => a - b));
  });

  test('_geoBoundingBox equals brute force', () => {
    const box = (c: Document) => geo(c).lat <= 50 && geo(c).lat >= 40 && geo(c).lng >= -5 && geo(c).lng <= 10;
    const ids = e.filterIds('_geoBoundingBox([50, -5], [40, 10])').sort();
    expect(ids).toEqual(cities.filter(box).map((c) => String(c.geonameid)).sort());
  });
});

describe('filter precedence on world cities (brute-force evaluation)', () => {
  const pop = (c: Document) => Number(c.population);
  const cases: [string, (c: Document) => boolean][] = [
    ['country = France OR country = Germany AND population > 1000000', (c) => c.country === 'France' || (c.country === 'Germany' && pop(c) > 1e6)],
    ['(country = France OR country = Germany) AND population > 1000000', (c) => (c.country === 'France' || c.country === 'Germany') && pop(c) > 1e6],
    ['NOT country = France AND population 5000000 TO 10000000', (c) => c.country !== 'France' && pop(c) >= 5e6 && pop(c) <= 1e7],
    ['NOT (country = France AND population > 100000)', (c) => !(c.country === 'France' && pop(c) > 1e5)],
    ['"country code" IN [FR, DE] AND NOT population < 500000', (c) => ['FR', 'DE'].includes(c['country code'] as string) && !(pop(c) < 5e5)],
    ['population > 20000000 OR _geoRadius(48.8566, 2.3522, 100000) AND country != France', (c) => pop(c) > 2e7 || (haversine(48.8566, 2.3522, geo(c).lat, geo(c).lng) <= 1e5 && c.country !== 'France')],
  ];

  test.each(cases)('%s', (filter, predicate) => {
    const expected = cities.filter(predicate).map((c) => String(c.geonameid)).sort();
    expect(e.filterIds(filter).sort()).toEqual(expected);
    expect(e.search({ filter, limit: 0 }).estimatedTotalHits).toBe(expected.length);
  });
});
