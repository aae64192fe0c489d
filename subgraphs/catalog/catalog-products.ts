// Products, variants, related products, product search and catalog webhooks of the catalog
// subgraph: their entities and resolvers, so index.ts registers them with one line each.
import { JobEntity } from '../../lib/jobs/index.js';
import { webhookEntities } from '../../lib/webhooks/index.js';
import { AppProductsResolver } from './apps/app.resolver.js';
import { ProductEntity } from './products/product.entity.js';
import { ProductResolver } from './products/product.resolver.js';
import { SkuEntity } from './products/sku.entity.js';
import { ProductSearchDocumentEntity } from './product-search/search-document.entity.js';
import { ProductSearchResolver } from './product-search/search.resolver.js';
import { ProductRelationEntity } from './related/related.entity.js';
import { RelatedProductsResolver } from './related/related.resolver.js';
import { VariantEntity } from './variants/variant.entity.js';
import { ProductVariantsResolver, VariantResolver } from './variants/variant.resolver.js';
import { CatalogWebhookResolver } from './events/webhook.resolver.js';

export const PRODUCT_ENTITIES = [ProductEntity, SkuEntity, VariantEntity, ProductRelationEntity, ProductSearchDocumentEntity, JobEntity, ...webhookEntities];

export const PRODUCT_RESOLVERS = [ProductResolver, AppProductsResolver, VariantResolver, ProductVariantsResolver, RelatedProductsResolver, ProductSearchResolver, CatalogWebhookResolver];
