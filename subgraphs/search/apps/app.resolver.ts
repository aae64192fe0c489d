// Search contributes `App.indexes` to the platform's App entity.
import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { SearchContext } from '../context.js';
import { AppRef, Index, toIndex } from '../indexes/index.type.js';

@Resolver(() => AppRef)
export class AppIndexesResolver {
  @Authorized('search:read')
  @FieldResolver(() => [Index], { description: 'Indexes of the app ordered by uid (the caller\'s own app only)' })
  async indexes(@Root() app: AppRef, @Ctx() ctx: SearchContext): Promise<Index[]> {
    return (await ctx.loaders.indexesByApp.load(app.id)).map(toIndex);
  }
}

export const appReference = {
  App: {
    __resolveReference(ref: { id: string }): AppRef {
      return { id: ref.id };
    },
  },
};
