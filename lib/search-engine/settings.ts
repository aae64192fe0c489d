// Settings checks and the parts of them that shape the index (changing those rebuilds segments;
// everything else — ranking, stop words, synonyms, typo tolerance, sortable, distinct — is read at query time).
import { parseRankingRules, DEFAULT_RANKING_RULES } from './ranking.js';
import { EngineError, type EngineSettings, type Faceting, type TypoTolerance } from './types.js';
import { checkLanguages } from './analyzer.js';

export const DEFAULT_SETTINGS: EngineSettings = {
  searchableAttributes: ['*'],
  filterableAttributes: [],
  sortableAttributes: [],
  rankingRules: DEFAULT_RANKING_RULES,
  stopWords: [],
  distinctAttribute: null,
  synonyms: {},
  oneWaySynonyms: {},
  typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 } },
};

export function checkSettings(s: EngineSettings): EngineSettings {
  const list = (v: unknown, name: string): string[] => {
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || !x)) throw new EngineError('invalid_settings', `${name} must be an array of non-empty strings`, name);
    return v as string[];
  };
  const typo = s.typoTolerance ?? DEFAULT_SETTINGS.typoTolerance;
  const one = typo.minWordSizeForTypos?.oneTypo ?? 5;
  const two = typo.minWordSizeForTypos?.twoTypos ?? 9;
  if (!Number.isInteger(one) || !Number.isInteger(two) || one < 0 || two < one || two > 255) {
    throw new EngineError('invalid_settings', 'typo_tolerance.min_word_size_for_typos needs integers with 0 <= one_typo <= two_typos <= 255', 'typo_tolerance');
  }
  const rankingRules = s.rankingRules?.length ? list(s.rankingRules, 'ranking_rules') : DEFAULT_RANKING_RULES;
  parseRankingRules(rankingRules);
  const languages = checkLanguages(s.languages);
  const embedding = list(s.embeddingAttributes ?? [], 'embedding_attributes');
  const searchable = s.searchableAttributes?.length ? list(s.searchableAttributes, 'searchable_attributes') : ['*'];
  return {
    searchableAttributes: searchable.includes('*') ? ['*'] : [...new Set(searchable)],
    filterableAttributes: [...new Set(list(s.filterableAttributes ?? [], 'filterable_attributes'))],
    sortableAttributes: [...new Set(list(s.sortableAttributes ?? [], 'sortable_attributes'))],
    rankingRules,
    stopWords: list(s.stopWords ?? [], 'stop_words'),
    distinctAttribute: s.distinctAttribute || null,
    synonyms: s.synonyms ?? {},
    oneWaySynonyms: s.oneWaySynonyms ?? {},
    typoTolerance: typoTolerance(typo, one, two, list),
    // only when set, so the settings (and shape) of an index without languages stay as they were
    ...(languages.length ? { languages } : {}),
    ...(embedding.length ? { embeddingAttributes: [...new Set(embedding)] } : {}),
    ...(s.maxTotalHits !== undefined ? { maxTotalHits: count(s.maxTotalHits, 1, 'pagination.max_total_hits') } : {}),
    ...(s.faceting ? { faceting: faceting(s.faceting) } : {}),
  };
}

function count(v: unknown, min: number, name: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new EngineError('invalid_settings', `${name} must be an integer from ${min}`, name);
  return v;
}

function faceting(f: Faceting): Faceting {
  const out: Faceting = {};
  if (f.maxValuesPerFacet !== undefined) out.maxValuesPerFacet = count(f.maxValuesPerFacet, 0, 'faceting.max_values_per_facet');
  if (f.sortFacetValuesBy) {
    for (const [attr, order] of Object.entries(f.sortFacetValuesBy)) {
      if (order !== 'alpha' && order !== 'count') throw new EngineError('invalid_settings', `faceting.sort_facet_values_by.${attr} must be alpha or count`, 'faceting');
    }
    out.sortFacetValuesBy = { ...f.sortFacetValuesBy };
  }
  return out;
}

/** The typo tolerance checked; the disable options only when set, so older settings keep their key. */
function typoTolerance(typo: Partial<TypoTolerance>, one: number, two: number, list: (v: unknown, name: string) => string[]): TypoTolerance {
  const out: TypoTolerance = { enabled: typo.enabled !== false, minWordSizeForTypos: { oneTypo: one, twoTypos: two } };
  const words = list(typo.disableOnWords ?? [], 'typo_tolerance.disable_on_words');
  const attributes = list(typo.disableOnAttributes ?? [], 'typo_tolerance.disable_on_attributes');
  if (words.length) out.disableOnWords = [...new Set(words)];
  if (attributes.length) out.disableOnAttributes = [...new Set(attributes)];
  if (typo.disableOnNumbers === true) out.disableOnNumbers = true;
  return out;
}

/** What the vectors were computed from (vector-index.ts); a change of it means re-embedding. */
export function vectorShapeOf(s: EngineSettings): string {
  return JSON.stringify(s.embeddingAttributes ?? []);
}

/** What the segments were built for; a change of it means re-indexing. */
export function shapeOf(s: EngineSettings): string {
  const shape: Record<string, unknown> = { searchable: s.searchableAttributes, filterable: [...s.filterableAttributes].sort() };
  if (s.languages?.length) shape.languages = s.languages;
  return JSON.stringify(shape);
}
