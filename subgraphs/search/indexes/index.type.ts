// The API shape of an index. Settings are stored snake_case (the REST contract's names) and shown
// camelCase in GraphQL, so the entity and the type are separate classes joined by toIndex().
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { Environment } from '../../../lib/tenant.js';
import { defaultSuggestionSettings, type SuggestionSettingsData } from './suggestion-settings.rules.js';
import { defaultSettings, type IndexSettingsData } from './index-settings.rules.js';
import { toEngineSettings } from './engine-settings.js';

/** What toIndex needs: an IndexEntity, or a row read with plain SQL (recordFromRow). */
export interface IndexRecord {
  id: string;
  uid: string;
  appId: string;
  environment: Environment;
  primaryKey?: string | null;
  numberOfDocuments: number;
  isIndexing: boolean;
  settings: IndexSettingsData;
  suggestionSettings?: SuggestionSettingsData | null;
  createdAt: Date;
  updatedAt: Date;
}

export function recordFromRow(r: Record<string, any>): IndexRecord {
  return {
    id: r.id,
    uid: r.uid,
    appId: r.app_id,
    environment: r.environment,
    primaryKey: r.primary_key,
    numberOfDocuments: Number(r.number_of_documents),
    isIndexing: r.is_indexing,
    settings: r.settings,
    suggestionSettings: r.suggestion_settings,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

@ObjectType('App')
@Directive('@key(fields: "id")')
export class AppRef {
  @Field(() => ID) id!: string;
}

// read from the index's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType()
export class MinWordSizeForTypos {
  @Field(() => Int, { description: 'Words at least this long accept one typo' }) oneTypo!: number;
  @Field(() => Int, { description: 'Words at least this long accept two typos' }) twoTypos!: number;
}

// read from the index's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType()
export class TypoTolerance {
  @Field() enabled!: boolean;
  @Field(() => MinWordSizeForTypos) minWordSizeForTypos!: MinWordSizeForTypos;
  @Field(() => [String], { description: 'query words matched without typos (a prefix still extends them)' }) disableOnWords!: string[];
  @Field(() => [String], { description: 'attributes where words match without typos (searchable attributes, or top-level fields when every field is searched)' })
  disableOnAttributes!: string[];
  @Field({ description: 'query words of digits only are matched without typos' }) disableOnNumbers!: boolean;
}

// read from the index's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType()
export class FacetingSettings {
  @Field(() => Int, { description: 'values returned per facet (default 100, at most 10,000)' }) maxValuesPerFacet!: number;
  @Field(() => GraphQLJSONObject, { description: 'attribute (or "*", every other) → alpha (by value, the default) or count (most frequent first)' })
  sortFacetValuesBy!: Record<string, 'alpha' | 'count'>;
}

// read from the index's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType()
export class PaginationSettings {
  @Field(() => Int, { description: 'ranked hits reachable through offset/limit and numbered pages (default 1,000, at most 20,000)' }) maxTotalHits!: number;
}

// read from the index's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType()
export class IndexSettings {
  @Field(() => [String]) searchableAttributes!: string[];
  @Field(() => [String]) filterableAttributes!: string[];
  @Field(() => [String]) sortableAttributes!: string[];
  @Field(() => [String]) rankingRules!: string[];
  @Field(() => [String]) stopWords!: string[];
  @Field(() => String, { nullable: true }) distinctAttribute!: string | null;
  @Field(() => GraphQLJSONObject, { description: 'term → array of equivalent terms' }) synonyms!: Record<string, string[]>;
  @Field(() => GraphQLJSONObject, { description: 'term → terms it also matches (one direction only)' }) oneWaySynonyms!: Record<string, string[]>;
  @Field(() => TypoTolerance) typoTolerance!: TypoTolerance;
  @Field(() => [String], { description: 'language pipeline: one stemming language (en, de, fr, es, it, pt, nl, ru, sv, no, da, fi, hu, ro, tr) and/or segmented ones (zh, ja, th); [] = the default tokenizer' })
  languages!: string[];
  @Field(() => [String], { description: 'attributes embedded (glove-sif-100d, the AI service\'s default model) for hybrid and vector search; [] = none' })
  embeddingAttributes!: string[];
  @Field(() => FacetingSettings) faceting!: FacetingSettings;
  @Field(() => PaginationSettings) pagination!: PaginationSettings;
}

// read from the index's own row: no work of its own (docs/cost.md)
@Directive('@cost(weight: 0)')
@ObjectType()
export class SuggestionSettings {
  @Field() enabled!: boolean;
  @Field(() => [String], { description: 'document fields whose values are suggested; empty: past queries only' }) sourceAttributes!: string[];
  @Field(() => Int) minQueryLength!: number;
  @Field(() => Int) maxSuggestions!: number;
  @Field() includeFrequency!: boolean;
}

export function toSuggestionSettings(s: SuggestionSettingsData | null | undefined): SuggestionSettings {
  const v = { ...defaultSuggestionSettings(), ...(s ?? {}) };
  return {
    enabled: v.enabled,
    sourceAttributes: v.source_attributes,
    minQueryLength: v.min_query_length,
    maxSuggestions: v.max_suggestions,
    includeFrequency: v.include_frequency,
  };
}

@Directive('@key(fields: "id")')
@ObjectType()
export class Index {
  @Field(() => ID) id!: string;
  @Field() uid!: string;
  @Field(() => String, { nullable: true }) primaryKey!: string | null;
  @Field(() => Int) numberOfDocuments!: number;
  @Field() isIndexing!: boolean;
  @Field(() => IndexSettings) settings!: IndexSettings;
  @Field(() => SuggestionSettings) suggestionSettings!: SuggestionSettings;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  /** owning app: resolved by the platform subgraph */
  @Field(() => AppRef) app!: AppRef;
}

/** The API shows the settings as the engine runs them (camelCase, defaults filled in). */
export function toIndexSettings(s: IndexSettingsData): IndexSettings {
  const engine = toEngineSettings(s);
  const typo = engine.typoTolerance;
  const faceting = s.faceting ?? defaultSettings().faceting!;
  const pagination = s.pagination ?? defaultSettings().pagination!;
  return {
    ...engine,
    typoTolerance: { ...typo, disableOnWords: typo.disableOnWords ?? [], disableOnAttributes: typo.disableOnAttributes ?? [], disableOnNumbers: typo.disableOnNumbers === true },
    languages: s.languages ?? [],
    embeddingAttributes: s.embedding_attributes ?? [],
    faceting: { maxValuesPerFacet: faceting.max_values_per_facet, sortFacetValuesBy: faceting.sort_facet_values_by },
    pagination: { maxTotalHits: pagination.max_total_hits },
  };
}

export function toIndex(e: IndexRecord): Index {
  const i = new Index();
  i.id = e.id;
  i.uid = e.uid;
  i.primaryKey = e.primaryKey ?? null;
  i.numberOfDocuments = e.numberOfDocuments;
  i.isIndexing = e.isIndexing;
  // Defaults first: rows written before a setting existed still show a complete object.
  i.settings = toIndexSettings({ ...defaultSettings(), ...e.settings });
  i.suggestionSettings = toSuggestionSettings(e.suggestionSettings);
  i.createdAt = e.createdAt;
  i.updatedAt = e.updatedAt;
  i.app = { id: e.appId };
  return i;
}
