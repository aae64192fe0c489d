// Index settings (stored with the REST contract's snake_case keys) → the engine's settings.
import { shapeOf, vectorShapeOf } from '../../../lib/search-engine/settings.js';
import { columnShapeOf } from '../../../lib/search-engine/columns.js';
import type { EngineSettings } from '../../../lib/search-engine/types.js';
import { MAX_TOTAL_HITS, MAX_VALUES_PER_FACET } from '../../../lib/search-engine/index.js';
import { defaultSettings, type FacetingSettings, type IndexSettingsData } from './index-settings.rules.js';

export function toEngineSettings(stored: IndexSettingsData): EngineSettings {
  const s = { ...defaultSettings(), ...stored };
  return {
    searchableAttributes: s.searchable_attributes,
    filterableAttributes: s.filterable_attributes,
    sortableAttributes: s.sortable_attributes,
    rankingRules: s.ranking_rules,
    stopWords: s.stop_words,
    distinctAttribute: s.distinct_attribute,
    synonyms: s.synonyms,
    oneWaySynonyms: s.one_way_synonyms,
    typoTolerance: {
      enabled: s.typo_tolerance.enabled,
      minWordSizeForTypos: {
        oneTypo: s.typo_tolerance.min_word_size_for_typos.one_typo,
        twoTypos: s.typo_tolerance.min_word_size_for_typos.two_typos,
      },
      // only when set: the key of an index that sets none stays what it was
      ...(s.typo_tolerance.disable_on_words?.length ? { disableOnWords: s.typo_tolerance.disable_on_words } : {}),
      ...(s.typo_tolerance.disable_on_attributes?.length ? { disableOnAttributes: s.typo_tolerance.disable_on_attributes } : {}),
      ...(s.typo_tolerance.disable_on_numbers ? { disableOnNumbers: true } : {}),
    },
    // only when set: the key of an index without languages or embeddings stays what it was
    ...(s.languages?.length ? { languages: s.languages } : {}),
    ...(s.embedding_attributes?.length ? { embeddingAttributes: s.embedding_attributes } : {}),
    // only when not the defaults: query-time settings, and the key of an index that never set them stays
    ...(s.pagination && s.pagination.max_total_hits !== MAX_TOTAL_HITS ? { maxTotalHits: s.pagination.max_total_hits } : {}),
    ...facetingOf(s.faceting),
  };
}

function facetingOf(f: FacetingSettings | undefined): Pick<EngineSettings, 'faceting'> {
  if (!f) return {};
  const orders = Object.entries(f.sort_facet_values_by);
  const sorted = orders.some(([attr, order]) => attr !== '*' || order !== 'alpha');
  const max = f.max_values_per_facet !== MAX_VALUES_PER_FACET;
  if (!sorted && !max) return {};
  return { faceting: { ...(max ? { maxValuesPerFacet: f.max_values_per_facet } : {}), ...(sorted ? { sortFacetValuesBy: f.sort_facet_values_by } : {}) } };
}

/** A stable key of the settings, to tell whether an engine still runs with the stored ones. */
export function settingsKey(stored: IndexSettingsData): string {
  return JSON.stringify(toEngineSettings(stored));
}

/**
 * Whether going from `a` to `b` reads every document again (searchable, filterable, languages,
 * embeddings; sortable, custom ranking rules or distinct: their columns are read from the bodies).
 */
export function rebuildNeeded(a: IndexSettingsData, b: IndexSettingsData): boolean {
  const x = toEngineSettings(a);
  const y = toEngineSettings(b);
  return shapeOf(x) !== shapeOf(y) || vectorShapeOf(x) !== vectorShapeOf(y) || columnShapeOf(x) !== columnShapeOf(y);
}
