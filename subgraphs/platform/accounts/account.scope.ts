// Account operations on both path families: the X-Platform platform (/accounts...), or a platform
// named in the path (/platforms/:pid/accounts...) when `platformId` is given (see inPathPlatform).
// Shared by the account resolver and the resolvers other aggregates add to Account.
import type { PlatformContext } from '../context.js';
import { inPathPlatform } from '../platforms/in-path-platform.js';
import type { Account } from './account.type.js';

/** The options of an operation's `platformId` argument. */
export const PID = { nullable: true, description: "a platform's id, url_id or code: work in that platform instead of X-Platform's" } as const;

/** `scope`: what the resolver's @Authorized asks, which the operator record of a path platform must grant too. */
export function scoped(ctx: PlatformContext, platformId: string | undefined | null, scope: string): Promise<PlatformContext> | PlatformContext {
  return platformId ? inPathPlatform(ctx, platformId, scope) : ctx;
}

/** Accounts read in a path platform's context keep its loaders, so nested fields (apps) resolve there too. */
export function out(sctx: PlatformContext, a: Account): Account {
  a.loaders = sctx.loaders;
  return a;
}
