// The subscription aggregate: subscription models, subscriptions and their events (and the billing
// fields they add to Account), their loaders, and the recurring renewal job (billing.worker.ts).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { billingLoaders } from './billing.loaders.js';
import { billingJobs } from './billing.worker.js';
import { SubscriptionEventEntity } from './subscription-event.entity.js';
import { SubscriptionModelEntity } from './subscription-model.entity.js';
import { SubscriptionEntity } from './subscription.entity.js';
import { AccountBillingResolver, SubscriptionResolver } from './subscription.resolver.js';

export const billingModule: SubgraphModule<PlatformContext> = {
  name: 'subscriptions',
  entities: [SubscriptionModelEntity, SubscriptionEntity, SubscriptionEventEntity],
  resolvers: [SubscriptionResolver, AccountBillingResolver],
  loaders: billingLoaders,
  jobs: (deps) => billingJobs({ ...deps, outbox: deps.runtime.outbox }),
};
