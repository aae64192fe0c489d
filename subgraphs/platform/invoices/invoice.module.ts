// The invoices' API: list, get, pay and void an account's invoices. The invoice record and the payment
// processors belong to the subscription aggregate (subscriptions/), whose ledger issues invoices.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { PlatformContext } from '../context.js';
import { InvoiceResolver } from './invoice.resolver.js';

export const invoiceModule: SubgraphModule<PlatformContext> = {
  name: 'invoices',
  resolvers: [InvoiceResolver],
};
