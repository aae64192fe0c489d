// Per-request DataLoaders of the billing fields on Account (plan, subscriptions). Kept beside the
// billing code and attached to the request's loaders object through a WeakMap, so they live and die
// with the request like the loaders in ../context.ts.
import DataLoader from 'dataloader';
import type { PlatformContext } from '../context.js';
import { SubscriptionEntity } from './subscription.entity.js';
import { PLAN_STATUSES } from './subscription.rules.js';
import { FREE_PLAN } from './subscription.repository.js';

export interface BillingLoaders {
  /** model code of the account's trialing/active/past-due subscription, else 'free' */
  planByAccount: DataLoader<string, string>;
  subscriptionsByAccount: DataLoader<string, SubscriptionEntity[]>;
}

const perRequest = new WeakMap<object, BillingLoaders>();

export function billingLoaders(ctx: PlatformContext): BillingLoaders {
  let l = perRequest.get(ctx.loaders);
  if (!l) {
    const { em } = ctx;
    const subscriptionsByAccount = new DataLoader<string, SubscriptionEntity[]>(async (ids) => {
      const rows = await em.find(SubscriptionEntity, { account: { $in: [...ids] } }, { populate: ['model'], orderBy: { createdAt: 'desc', id: 'asc' } });
      const m = new Map<string, SubscriptionEntity[]>(ids.map((id) => [id, []]));
      for (const r of rows) m.get(r.account.id)?.push(r);
      return ids.map((id) => m.get(id)!);
    });
    l = {
      subscriptionsByAccount,
      planByAccount: new DataLoader(async (ids) => {
        const subs = await subscriptionsByAccount.loadMany(ids);
        return subs.map((list) => (list instanceof Error ? FREE_PLAN : (list.find((s) => PLAN_STATUSES.includes(s.status))?.model.code ?? FREE_PLAN)));
      }),
    };
    perRequest.set(ctx.loaders, l);
  }
  return l;
}
