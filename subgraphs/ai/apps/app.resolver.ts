// AI contributes `App.identityCount` to the platform's App entity.
import { Authorized, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { AiContext } from '../context.js';
import { AppRef } from '../identities/identity.type.js';

@Resolver(() => AppRef)
export class AppIdentitiesResolver {
  @Authorized('ai:read')
  @FieldResolver(() => Int, { description: 'Registered users of the app (the caller\'s own app and environment only; 0 otherwise)' })
  async identityCount(@Root() app: AppRef, @Ctx() ctx: AiContext): Promise<number> {
    return ctx.loaders.identityCountByApp.load(app.id);
  }
}

export const appReference = {
  App: {
    __resolveReference(ref: { id: string }): AppRef {
      return { id: ref.id };
    },
  },
};
