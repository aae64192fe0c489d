// `App.apiKeys`: a field the API-key aggregate adds to the app type (as the catalog's
// `Product.categories`), so apps/ imports nothing of api-keys/.
import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { App } from '../apps/app.type.js';
import { ApiKey, toApiKey } from './api-key.type.js';

@Resolver(() => App)
export class AppApiKeysResolver {
  @Authorized('platform:read')
  @FieldResolver(() => [ApiKey], { description: 'Keys of the app (revoked keys left out); key values masked' })
  async apiKeys(@Root() app: App, @Ctx() ctx: PlatformContext): Promise<ApiKey[]> {
    return (await ctx.loaders.apiKeysByApp.load(app.id)).map((k) => toApiKey(k));
  }
}
