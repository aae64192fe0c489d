import { Arg, Authorized, Ctx, Directive, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import type { SearchContext } from '../context.js';
import { Task, toTask } from '../tasks/task.type.js';
import { CreateIndexInput, SuggestionSettingsInput } from './index.inputs.js';
import { Index, SuggestionSettings, toIndex, toSuggestionSettings } from './index.type.js';
import * as indexes from './index.service.js';
import { MAX_SWAPS, swapIndexes } from './index-swap.service.js';
import { updateIndex } from './index-update.service.js';

@ObjectType()
export class IndexSynonyms {
  @Field() indexUid!: string;
  @Field(() => GraphQLJSONObject, { description: 'two-way: term → equivalent terms' }) synonyms!: Record<string, string[]>;
  @Field(() => GraphQLJSONObject, { description: 'one-way: term → terms it also matches' }) oneWaySynonyms!: Record<string, string[]>;
}

@Resolver(() => Index)
export class IndexResolver {
  @Authorized('search:read')
  @Directive('@listSize(slicingArguments: ["limit"], requireOneSlicingArgument: false)')
  @Query(() => [Index], { description: `Indexes of the calling app, ordered by uid: a page of at most ${indexes.MAX_INDEX_PAGE} (the default)` })
  async indexes(
    @Ctx() ctx: SearchContext,
    @Arg('offset', () => Int, { nullable: true, description: 'indexes skipped (default 0)' }) offset?: number,
    @Arg('limit', () => Int, { nullable: true, description: `default and at most ${indexes.MAX_INDEX_PAGE}` }) limit?: number,
  ): Promise<Index[]> {
    return (await indexes.listIndexPage(ctx, offset, limit)).indexes.map(toIndex);
  }

  @Authorized('search:read')
  @Query(() => Int, { description: 'How many indexes the calling app has (the total behind the pages of `indexes`)' })
  async indexCount(@Ctx() ctx: SearchContext): Promise<number> {
    return indexes.countIndexes(ctx);
  }

  @Authorized('search:read')
  @Query(() => Index, { description: 'An index of the calling app by uid; index_not_found otherwise' })
  async index(@Ctx() ctx: SearchContext, @Arg('uid', () => String) uid: string): Promise<Index> {
    return toIndex(await indexes.getIndex(ctx, uid));
  }

  @Authorized('search:read')
  @Query(() => IndexSynonyms, { description: 'The synonyms of an index (two-way and one-way)' })
  async indexSynonyms(@Ctx() ctx: SearchContext, @Arg('uid', () => String) uid: string): Promise<IndexSynonyms> {
    const s = await indexes.getSynonyms(ctx, uid);
    return { indexUid: uid, synonyms: s.synonyms, oneWaySynonyms: s.one_way_synonyms };
  }

  @Authorized('search:write')
  @Mutation(() => Index, { description: 'Create an index (also recorded as a succeeded index_creation task); index_already_exists when the uid is taken' })
  async createIndex(@Ctx() ctx: SearchContext, @Arg('input', () => CreateIndexInput) input: CreateIndexInput): Promise<Index> {
    return toIndex((await indexes.createIndex(ctx, input)).index);
  }

  @Authorized('search:write')
  @Mutation(() => Task, {
    description:
      'Rename the index (newUid: at once, a succeeded index_update task) and/or change its primary key (an index_update task; it fails with index_primary_key_already_exists when the index holds documents)',
  })
  async updateIndex(
    @Ctx() ctx: SearchContext,
    @Arg('uid', () => String) uid: string,
    @Arg('primaryKey', () => String, { nullable: true }) primaryKey?: string,
    @Arg('newUid', () => String, { nullable: true, description: 'the name the index takes (index_already_exists when another index has it)' }) newUid?: string,
  ): Promise<Task> {
    return toTask(await updateIndex(ctx, uid, primaryKey, newUid));
  }

  @Authorized('search:write')
  @Mutation(() => Task, { description: 'Delete the index and all its documents (a task)' })
  async deleteIndex(@Ctx() ctx: SearchContext, @Arg('uid', () => String) uid: string): Promise<Task> {
    return toTask(await indexes.deleteIndex(ctx, uid));
  }

  @Authorized('search:write')
  @Mutation(() => Task, {
    description: `Swap the names of pairs of indexes, atomically (Meilisearch's swap-indexes; recorded as a succeeded index_swap task); at most ${MAX_SWAPS} pairs`,
  })
  async swapIndexes(
    @Ctx() ctx: SearchContext,
    @Arg('swaps', () => [GraphQLJSON], { nullable: 'itemsAndList', description: '[{ indexes: [a, b] }]: checked by the service, which names the offending position' }) swaps: unknown[] | null,
  ): Promise<Task> {
    return toTask(await swapIndexes(ctx, swaps));
  }

  @Authorized('search:write')
  @Mutation(() => Task, { description: 'Change some settings (a task); keys as in IndexSettings, snake_case or camelCase; null resets a key' })
  async updateIndexSettings(
    @Ctx() ctx: SearchContext,
    @Arg('uid', () => String) uid: string,
    @Arg('settings', () => GraphQLJSONObject) settings: Record<string, unknown>,
  ): Promise<Task> {
    return toTask(await indexes.updateSettings(ctx, uid, settings));
  }

  @Authorized('search:write')
  @Mutation(() => Task, { description: 'Every setting back to its default (a settings_update task)' })
  async resetIndexSettings(@Ctx() ctx: SearchContext, @Arg('uid', () => String) uid: string): Promise<Task> {
    return toTask(await indexes.resetSettings(ctx, uid));
  }

  @Authorized('search:write')
  @Mutation(() => Task, { description: 'Replace the synonyms (a task); an omitted object becomes empty' })
  async updateIndexSynonyms(
    @Ctx() ctx: SearchContext,
    @Arg('uid', () => String) uid: string,
    @Arg('synonyms', () => GraphQLJSONObject, { nullable: true }) synonyms?: Record<string, unknown>,
    @Arg('oneWaySynonyms', () => GraphQLJSONObject, { nullable: true }) oneWaySynonyms?: Record<string, unknown>,
  ): Promise<Task> {
    return toTask(await indexes.updateSynonyms(ctx, uid, synonyms, oneWaySynonyms));
  }

  @Authorized('search:write')
  @Mutation(() => Task, { description: 'Replace the stop words (a task)' })
  async updateIndexStopWords(@Ctx() ctx: SearchContext, @Arg('uid', () => String) uid: string, @Arg('stopWords', () => [String], { nullable: true }) stopWords: string[] | null): Promise<Task> {
    return toTask(await indexes.updateStopWords(ctx, uid, stopWords));
  }

  @Authorized('search:write')
  @Mutation(() => Task, { description: 'Replace the ranking rules (a task)' })
  async updateIndexRankingRules(@Ctx() ctx: SearchContext, @Arg('uid', () => String) uid: string, @Arg('rankingRules', () => [String], { nullable: true }) rankingRules: string[] | null): Promise<Task> {
    return toTask(await indexes.updateRankingRules(ctx, uid, rankingRules));
  }

  @Authorized('search:write')
  @Mutation(() => SuggestionSettings, { description: 'Change suggestion settings (applied at once: they touch neither documents nor ranking)' })
  async updateIndexSuggestionSettings(
    @Ctx() ctx: SearchContext,
    @Arg('uid', () => String) uid: string,
    @Arg('input', () => SuggestionSettingsInput) input: SuggestionSettingsInput,
  ): Promise<SuggestionSettings> {
    return toSuggestionSettings(await indexes.updateSuggestionSettings(ctx, uid, { ...input }));
  }
}
