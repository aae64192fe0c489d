// The API shape of an index. Settings are stored snake_case (the REST contract's names) and shown
// camelCase in GraphQL, so the entity and the type are separate classes joined by toIndex().
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { IndexEntity } from './index.entity.js';
import { defaultSettings, type IndexSettingsData } from './index-settings.rules.js';

@ObjectType('App')
@Directive('@key(fields: "id")')
export class AppRef {
  @Field(() => ID) id!: string;
}

@ObjectType()
export class MinWordSizeForTypos {
  @Field(() => Int, { description: 'Words at least this long accept one typo' }) oneTypo!: number;
  @Field(() => Int, { description: 'Words at least this long accept two typos' }) twoTypos!: number;
}

@ObjectType()
export class TypoTolerance {
  @Field() enabled!: boolean;
  @Field(() => MinWordSizeForTypos) minWordSizeForTypos!: MinWordSizeForTypos;
}

@ObjectType()
export class IndexSettings {
  @Field(() => [String]) searchableAttributes!: string[];
  @Field(() => [String]) filterableAttributes!: string[];
  @Field(() => [String]) sortableAttributes!: string[];
  @Field(() => [String]) rankingRules!: string[];
  @Field(() => [String]) stopWords!: string[];
  @Field(() => String, { nullable: true }) distinctAttribute!: string | null;
  @Field(() => GraphQLJSONObject, { description: 'term → array of equivalent terms' }) synonyms!: Record<string, string[]>;
  @Field(() => TypoTolerance) typoTolerance!: TypoTolerance;
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
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  /** owning app: resolved by the platform subgraph */
  @Field(() => AppRef) app!: AppRef;
}

export function toIndexSettings(s: IndexSettingsData): IndexSettings {
  return {
    searchableAttributes: s.searchable_attributes,
    filterableAttributes: s.filterable_attributes,
    sortableAttributes: s.sortable_attributes,
    rankingRules: s.ranking_rules,
    stopWords: s.stop_words,
    distinctAttribute: s.distinct_attribute,
    synonyms: s.synonyms,
    typoTolerance: {
      enabled: s.typo_tolerance.enabled,
      minWordSizeForTypos: {
        oneTypo: s.typo_tolerance.min_word_size_for_typos.one_typo,
        twoTypos: s.typo_tolerance.min_word_size_for_typos.two_typos,
      },
    },
  };
}

export function toIndex(e: IndexEntity): Index {
  const i = new Index();
  i.id = e.id;
  i.uid = e.uid;
  i.primaryKey = e.primaryKey ?? null;
  i.numberOfDocuments = e.numberOfDocuments;
  i.isIndexing = e.isIndexing;
  // Defaults first: rows written before a setting existed still show a complete object.
  i.settings = toIndexSettings({ ...defaultSettings(), ...e.settings });
  i.createdAt = e.createdAt;
  i.updatedAt = e.updatedAt;
  i.app = { id: e.appId };
  return i;
}
