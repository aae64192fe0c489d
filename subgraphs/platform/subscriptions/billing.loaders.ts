// Per-request loaders of the billing fields on Account (plan, subscriptions), declared on the
// request's `ctx.loaders` like every aggregate's (billing.module.ts).
import DataLoader from 'dataloader';
import { groupRows } from '../../../lib/loaders.js';
import type { PlatformContext } from '../context.js';
import { SubscriptionEntity } from './subscription.entity.js';
import { PLAN_STATUSES } from './subscription.rules.js';
import { FREE_PLAN } from './subscription.repository.js';

declare module '../context.js' {
  interface PlatformLoaders {
    /** model code of the account's trialing/active/past-due subscription, else 'free' */
    planByAccount: DataLoader<string, string>;
    subscriptionsByAccount: DataLoader<string, SubscriptionEntity[]>;
  }
}

type Own = Pick<PlatformContext['loaders'], 'planByAccount' | 'subscriptionsByAccount'>;

export function billingLoaders(ctx: PlatformContext): Own {
  const { em } = ctx;
  const subscriptionsByAccount = new DataLoader<string, SubscriptionEntity[]>(async (ids) =>
    groupRows(ids, await em.find(SubscriptionEntity, { account: { $in: [...ids] } }, { populate: ['model'], orderBy: { createdAt: 'desc', id: 'asc' } }), (r) => r.account.id),
  );
  return {
    subscriptionsByAccount,
    planByAccount: new DataLoader(async (ids) => {
      const subs = await subscriptionsByAccount.loadMany(ids);
      return subs.map((list) => (list instanceof Error ? FREE_PLAN : (list.find((s) => PLAN_STATUSES.includes(s.status))?.model.code ?? FREE_PLAN)));
    }),
  };
}
