// Invoices of an account's subscriptions, and their API.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { InvoiceEntity } from './invoice.entity.js';
import { InvoiceResolver } from './invoice.resolver.js';

export const invoiceModule: SubgraphModule<PlatformContext> = {
  name: 'invoices',
  entities: [InvoiceEntity],
  resolvers: [InvoiceResolver],
};
