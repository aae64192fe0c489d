import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AiContext } from '../context.js';
import { UserUniqueIdArgs } from './identity.inputs.js';
import { Identity, toIdentity } from './identity.type.js';
import * as identities from './identity.service.js';

@Resolver(() => Identity)
export class IdentityResolver {
  // No @Authorized: the rules (API key + user JWT; identities:write for others) live in the service.
  @Mutation(() => Identity, { description: 'Register a user in the calling app (idempotent); self-registration needs no scope' })
  async registerIdentity(@Ctx() ctx: AiContext, @Args(() => UserUniqueIdArgs) { userUniqueId }: UserUniqueIdArgs): Promise<Identity> {
    return toIdentity(await identities.registerIdentity(ctx, userUniqueId));
  }

  @Authorized('ai:read')
  @Query(() => Identity, { description: 'A registered user of the calling app; usr-not-registered otherwise' })
  async identity(@Ctx() ctx: AiContext, @Args(() => UserUniqueIdArgs) { userUniqueId }: UserUniqueIdArgs): Promise<Identity> {
    return toIdentity(await identities.getIdentity(ctx, userUniqueId));
  }
}
