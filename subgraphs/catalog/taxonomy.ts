// Categories, collections and pricing of the catalog subgraph: their entities and resolvers, so
// index.ts registers them with one line each.
import { CategoryEntity, ProductCategoryEntity } from './categories/category.entity.js';
import { CategoryResolver } from './categories/category.resolver.js';
import { CollectionEntity, CollectionProductEntity } from './collections/collection.entity.js';
import { CollectionResolver } from './collections/collection.resolver.js';
import { CustomerPriceEntity, PriceTierEntity, ProductPriceEntity, ScheduledPriceEntity } from './pricing/price.entity.js';
import { PricingResolver, ProductEffectivePriceResolver } from './pricing/pricing.resolver.js';

export const TAXONOMY_ENTITIES = [
  CategoryEntity,
  ProductCategoryEntity,
  CollectionEntity,
  CollectionProductEntity,
  ProductPriceEntity,
  PriceTierEntity,
  CustomerPriceEntity,
  ScheduledPriceEntity,
];

export const TAXONOMY_RESOLVERS = [CategoryResolver, CollectionResolver, PricingResolver, ProductEffectivePriceResolver];
