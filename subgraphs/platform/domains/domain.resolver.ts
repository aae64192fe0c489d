// Domain verification for apps and accounts. Both operations consult DNS and record the outcome,
// so both are mutations (the REST bridge serves the check as GET .../check_domain and .../domain/check).
import { Arg, Authorized, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { DomainVerification, toDomainVerification } from './domain.type.js';
import * as domains from './domain.service.js';

@Resolver(() => DomainVerification)
export class DomainResolver {
  @Authorized('platform:manage')
  @Mutation(() => DomainVerification, { description: "Issue the app's verification token (once per domain) and check DNS" })
  async verifyAppDomain(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('appId', () => ID) appId: string): Promise<DomainVerification> {
    return toDomainVerification(await domains.verifyAppDomain(ctx, accountUrlId, appId));
  }

  @Authorized('platform:read')
  @Mutation(() => DomainVerification, { description: "Check the app's DNS records again; not_started until verifyAppDomain ran" })
  async checkAppDomain(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('appId', () => ID) appId: string): Promise<DomainVerification> {
    return toDomainVerification(await domains.checkAppDomain(ctx, accountUrlId, appId));
  }

  @Authorized('platform:manage')
  @Mutation(() => DomainVerification, { description: "Issue the account's verification token (once per domain) and check DNS" })
  async verifyAccountDomain(@Ctx() ctx: PlatformContext, @Arg('urlId') urlId: string): Promise<DomainVerification> {
    return toDomainVerification(await domains.verifyAccountDomain(ctx, urlId));
  }

  @Authorized('platform:read')
  @Mutation(() => DomainVerification, { description: "Check the account's DNS records again (SPF, DKIM, ownership token)" })
  async checkAccountDomain(@Ctx() ctx: PlatformContext, @Arg('urlId') urlId: string): Promise<DomainVerification> {
    return toDomainVerification(await domains.checkAccountDomain(ctx, urlId));
  }
}
