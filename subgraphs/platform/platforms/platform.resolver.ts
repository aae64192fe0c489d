import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { CreatePlatformInput, UpdatePlatformInput } from './platform.inputs.js';
import { Platform, toPlatform } from './platform.type.js';
import * as platforms from './platform.service.js';

@Resolver(() => Platform)
export class PlatformResolver {
  @Authorized('platform:admin')
  @Query(() => [Platform], { description: 'The platforms the caller operates (every one with platform:superadmin)' })
  async platforms(@Ctx() ctx: PlatformContext): Promise<Platform[]> {
    return (await platforms.listPlatforms(ctx)).map(toPlatform);
  }

  @Authorized('platform:admin')
  @Query(() => Platform, { description: "By the platform's id, url_id or code; PLATFORM_NOT_FOUND otherwise" })
  async platform(@Ctx() ctx: PlatformContext, @Arg('id', () => ID) id: string): Promise<Platform> {
    return toPlatform(await platforms.getPlatform(ctx, id));
  }

  @Authorized('platform:admin')
  @Mutation(() => Platform, { description: 'Needs no X-Platform, so an admin can create the first platform; the caller becomes its owner operator' })
  async createPlatform(@Ctx() ctx: PlatformContext, @Arg('input', () => CreatePlatformInput) input: CreatePlatformInput): Promise<Platform> {
    return toPlatform(await platforms.createPlatform(ctx, input));
  }

  @Authorized('platform:admin')
  @Mutation(() => Platform, { description: 'Attributes left out keep their value; code is immutable' })
  async updatePlatform(
    @Ctx() ctx: PlatformContext,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdatePlatformInput) input: UpdatePlatformInput,
  ): Promise<Platform> {
    return toPlatform(await platforms.updatePlatform(ctx, id, input));
  }

  @Authorized('platform:admin')
  @Mutation(() => Platform, { description: 'Soft delete; PLATFORM_NOT_EMPTY (409) while it has live accounts' })
  async deletePlatform(@Ctx() ctx: PlatformContext, @Arg('id', () => ID) id: string): Promise<Platform> {
    return toPlatform(await platforms.deletePlatform(ctx, id));
  }

  @Authorized('platform:admin')
  @Mutation(() => Platform, { description: 'Undo a soft delete' })
  async restorePlatform(@Ctx() ctx: PlatformContext, @Arg('id', () => ID) id: string): Promise<Platform> {
    return toPlatform(await platforms.restorePlatform(ctx, id));
  }
}
