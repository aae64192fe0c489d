// What subscriptions and billing add to the platform subgraph definition (../index.ts).
import { InvoiceEntity } from '../invoices/invoice.entity.js';
import { InvoiceResolver } from '../invoices/invoice.resolver.js';
import { SubscriptionEventEntity } from './subscription-event.entity.js';
import { SubscriptionModelEntity } from './subscription-model.entity.js';
import { SubscriptionEntity } from './subscription.entity.js';
import { AccountBillingResolver, SubscriptionResolver } from './subscription.resolver.js';

export const BILLING_ENTITIES = [SubscriptionModelEntity, SubscriptionEntity, SubscriptionEventEntity, InvoiceEntity];
export const BILLING_RESOLVERS = [SubscriptionResolver, AccountBillingResolver, InvoiceResolver] as const;
