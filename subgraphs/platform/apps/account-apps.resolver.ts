// `Account.apps`: a field the app aggregate adds to the account type (as `App.apiKeys` in api-keys/),
// so accounts/ imports nothing of apps/. An account read on a `/platforms/:pid/…` path carries that
// path's loaders (`account.loaders`).
import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { Account } from '../accounts/account.type.js';
import { App, toApp } from './app.type.js';

@Resolver(() => Account)
export class AccountAppsResolver {
  /** platform:read, so an API key reaching its account through App.account cannot list sibling apps */
  @Authorized('platform:read')
  @FieldResolver(() => [App])
  async apps(@Root() account: Account, @Ctx() ctx: PlatformContext): Promise<App[]> {
    return (await (account.loaders ?? ctx.loaders).appsByAccount.load(account.id)).map(toApp);
  }
}
