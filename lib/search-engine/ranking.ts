// Ranking rules and the request's sort, parsed and validated.
import { covered } from './fields.js';
import { parseGeoPoint } from './geo.js';
import { EngineError } from './types.js';

export const DEFAULT_RANKING_RULES = ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'];
const BUILT_IN = new Set(DEFAULT_RANKING_RULES);

export type Rule =
  | { kind: 'words' | 'typo' | 'proximity' | 'attribute' | 'sort' | 'exactness' }
  | { kind: 'custom'; attr: string; desc: boolean };

export type SortCriterion = { kind: 'field'; attr: string; desc: boolean } | { kind: 'geo'; lat: number; lng: number; desc: boolean };

export function parseRankingRules(rules: readonly string[]): Rule[] {
  const out: Rule[] = [];
  const seen = new Set<string>();
  for (const r of rules) {
    if (typeof r !== 'string') throw new EngineError('invalid_settings', 'Ranking rules must be strings', 'ranking_rules');
    if (seen.has(r)) throw new EngineError('invalid_settings', `Ranking rule \`${r}\` is listed twice`, 'ranking_rules');
    seen.add(r);
    if (BUILT_IN.has(r)) {
      out.push({ kind: r as 'words' });
      continue;
    }
    const m = /^([^:\s]+):(asc|desc)$/.exec(r);
    if (!m) {
      throw new EngineError(
        'invalid_settings',
        `Invalid ranking rule \`${r}\`: use words, typo, proximity, attribute, sort, exactness or \`<attribute>:asc|desc\``,
        'ranking_rules',
      );
    }
    out.push({ kind: 'custom', attr: m[1], desc: m[2] === 'desc' });
  }
  return out;
}

/** `attr:asc|desc` and `_geoPoint(lat, lng):asc|desc`, each attribute sortable (`_geo` for geo points). */
export function parseSort(sort: unknown, sortable: readonly string[], rules: readonly Rule[]): SortCriterion[] {
  if (sort === undefined || sort === null) return [];
  if (!Array.isArray(sort)) throw new EngineError('invalid_sort_attribute', 'sort must be an array of `<attribute>:asc|desc`', 'sort');
  const out: SortCriterion[] = [];
  for (const s of sort) {
    if (typeof s !== 'string') throw new EngineError('invalid_sort_attribute', 'sort must be an array of strings', 'sort');
    if (s.trim().startsWith('_geoPoint')) {
      const g = parseGeoPoint(s);
      if (!g) throw new EngineError('invalid_sort_attribute', `Invalid geo sort \`${s}\`: use \`_geoPoint(<lat>, <lng>):asc|desc\``, 'sort');
      if (!covered(sortable, '_geo')) throw new EngineError('invalid_sort_attribute', 'Sorting by `_geoPoint` needs `_geo` in sortable attributes', 'sort');
      out.push({ kind: 'geo', ...g });
      continue;
    }
    const m = /^(.+):(asc|desc)$/.exec(s.trim());
    if (!m) throw new EngineError('invalid_sort_attribute', `Invalid sort \`${s}\`: use \`<attribute>:asc\` or \`<attribute>:desc\``, 'sort');
    if (!covered(sortable, m[1])) {
      const list = sortable.length ? sortable.join(', ') : 'none';
      throw new EngineError('invalid_sort_attribute', `Attribute \`${m[1]}\` is not sortable. Sortable attributes: ${list}.`, 'sort');
    }
    out.push({ kind: 'field', attr: m[1], desc: m[2] === 'desc' });
  }
  if (out.length && !rules.some((r) => r.kind === 'sort')) {
    throw new EngineError('invalid_sort_attribute', 'The `sort` ranking rule is not in the ranking rules, so the request cannot sort', 'sort');
  }
  return out;
}
