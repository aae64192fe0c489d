import { Arg, Authorized, Ctx, Directive, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
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
