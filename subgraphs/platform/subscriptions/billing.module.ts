// The subscription aggregate: subscription models, subscriptions and their events (and what they add
// to Account: the billing fields, and the delete, which ends the live subscription), the invoices the
// ledger issues in a move's transaction and the payment processors that collect them, their loaders,
// and the recurring renewal job (billing.worker.ts). The invoices' own API (list, get, pay, void) is
// the invoices module above it.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { billingLoaders } from './billing.loaders.js';
import { billingJobs } from './billing.worker.js';
import { InvoiceEntity } from './invoice.entity.js';
import { SubscriptionEventEntity } from './subscription-event.entity.js';
import { SubscriptionModelEntity } from './subscription-model.entity.js';
import { SubscriptionEntity } from './subscription.entity.js';
import { AccountClosureResolver } from './account-closure.resolver.js';
import { AccountBillingResolver, SubscriptionResolver } from './subscription.resolver.js';

export const billingModule: SubgraphModule<PlatformContext> = {
  name: 'subscriptions',
  entities: [SubscriptionModelEntity, SubscriptionEntity, SubscriptionEventEntity, InvoiceEntity],
  resolvers: [SubscriptionResolver, AccountBillingResolver, AccountClosureResolver],
  loaders: billingLoaders,
  jobs: (deps) => billingJobs({ ...deps, outbox: deps.runtime.outbox }),
};
