import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { SearchContext } from '../context.js';
import { CreateIndexInput } from './index.inputs.js';
import { Index, toIndex } from './index.type.js';
import * as indexes from './index.service.js';

@Resolver(() => Index)
export class IndexResolver {
  @Authorized('search:read')
  @Query(() => [Index], { description: 'Indexes of the calling app, ordered by uid' })
  async indexes(@Ctx() ctx: SearchContext): Promise<Index[]> {
    return (await indexes.listIndexes(ctx)).map(toIndex);
  }

  @Authorized('search:read')
  @Query(() => Index, { description: 'An index of the calling app by uid; index_not_found otherwise' })
  async index(@Ctx() ctx: SearchContext, @Arg('uid', () => String) uid: string): Promise<Index> {
    return toIndex(await indexes.getIndex(ctx, uid));
  }

  @Authorized('search:write')
  @Mutation(() => Index, { description: 'Create an index; index_already_exists when the uid is taken' })
  async createIndex(@Ctx() ctx: SearchContext, @Arg('input', () => CreateIndexInput) input: CreateIndexInput): Promise<Index> {
    return toIndex(await indexes.createIndex(ctx, input));
  }
}
