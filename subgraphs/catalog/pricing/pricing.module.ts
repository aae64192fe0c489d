// The pricing aggregate: currency prices, tiers, customer and scheduled prices, the effective price
// (and `Product.effectivePrice`), with their loaders.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { CustomerPriceEntity, PriceTierEntity, ProductPriceEntity, ScheduledPriceEntity } from './price.entity.js';
import { pricingLoaders } from './pricing.loaders.js';
import { PricingResolver, ProductEffectivePriceResolver } from './pricing.resolver.js';

export const pricingModule: SubgraphModule<CatalogContext> = {
  name: 'pricing',
  entities: [ProductPriceEntity, PriceTierEntity, CustomerPriceEntity, ScheduledPriceEntity],
  resolvers: [PricingResolver, ProductEffectivePriceResolver],
  loaders: pricingLoaders,
};
