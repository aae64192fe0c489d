import { Arg, Authorized, Ctx, Directive, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { App, toApp } from '../apps/app.type.js';
import { CreateApiKeyInput, KeyUsageInput } from './api-key.inputs.js';
import { ApiKey, ApiKeyVerification, toApiKey } from './api-key.type.js';
import * as apiKeys from './api-key.service.js';

@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Authorized('platform:read')
  @Query(() => [ApiKey], { description: 'Keys of an app (revoked keys left out); key values masked' })
  async apiKeys(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('appId', () => ID) appId: string,
  ): Promise<ApiKey[]> {
    return (await apiKeys.listApiKeys(ctx, accountUrlId, appId)).map((k) => toApiKey(k));
  }

  @Authorized('platform:manage')
  @Mutation(() => ApiKey, { description: 'The response carries the full key value in keyId: the only time it is ever shown' })
  async createApiKey(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('appId', () => ID) appId: string,
    @Arg('input', () => CreateApiKeyInput) input: CreateApiKeyInput,
  ): Promise<ApiKey> {
    const { key, value } = await apiKeys.createApiKey(ctx, accountUrlId, appId, input);
    return toApiKey(key, value);
  }

  @Authorized('platform:manage')
  @Mutation(() => ApiKey, { description: 'A new value at once (full, in keyId, shown this once); the old value stops working immediately' })
  async regenerateApiKey(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('appId', () => ID) appId: string,
    @Arg('id', () => ID) id: string,
  ): Promise<ApiKey> {
    const { key, value } = await apiKeys.regenerateApiKey(ctx, accountUrlId, appId, id);
    return toApiKey(key, value);
  }

  @Authorized('platform:manage')
  @Mutation(() => ApiKey, { description: 'A new value (full, in keyId, shown this once); the old value keeps working for the grace period' })
  async rotateApiKeySecret(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('appId', () => ID) appId: string,
    @Arg('id', () => ID) id: string,
    @Arg('gracePeriodSeconds', () => Int, { nullable: true, description: `0-${apiKeys.ROTATION_GRACE.maxSeconds}, default ${apiKeys.ROTATION_GRACE.defaultSeconds} (24 h)` })
    gracePeriodSeconds?: number,
  ): Promise<ApiKey> {
    const { key, value } = await apiKeys.rotateApiKeySecret(ctx, accountUrlId, appId, id, gracePeriodSeconds ?? undefined);
    return toApiKey(key, value);
  }

  @Authorized('platform:manage')
  @Mutation(() => ApiKey, { description: 'Revoke: the key stops working at once and leaves the lists' })
  async revokeApiKey(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('appId', () => ID) appId: string,
    @Arg('id', () => ID) id: string,
  ): Promise<ApiKey> {
    return toApiKey(await apiKeys.revokeApiKey(ctx, accountUrlId, appId, id));
  }

  @Directive('@inaccessible')
  @Query(() => ApiKeyVerification, { nullable: true, description: 'Internal (gateway, service callers only)' })
  async _verifyApiKey(
    @Ctx() ctx: PlatformContext,
    @Arg('appId', () => ID) appId: string,
    @Arg('keyHash') keyHash: string,
  ): Promise<ApiKeyVerification | null> {
    return apiKeys.verifyApiKey(ctx, appId, keyHash);
  }

  @Directive('@inaccessible')
  @Mutation(() => Boolean, { description: 'Internal (gateway, service callers only)' })
  async _recordKeyUsage(@Ctx() ctx: PlatformContext, @Arg('usage', () => [KeyUsageInput]) usage: KeyUsageInput[]): Promise<boolean> {
    return apiKeys.recordKeyUsage(ctx, usage);
  }

  @FieldResolver(() => App)
  async app(@Root() key: ApiKey, @Ctx() ctx: PlatformContext): Promise<App> {
    const row = await ctx.loaders.appById.load(key.appId);
    if (!row) throw new DomainError('APP_NOT_FOUND', `App ${key.appId} not found`);
    return toApp(row);
  }
}
