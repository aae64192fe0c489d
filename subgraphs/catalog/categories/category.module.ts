// The category aggregate: the category tree, product assignments (and `Product.categories`), with
// their loaders.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { CatalogContext } from '../context.js';
import { CategoryEntity, ProductCategoryEntity } from './category.entity.js';
import { categoryLoaders } from './category.loaders.js';
import { CategoryResolver } from './category.resolver.js';
import { ProductCategoriesResolver } from './product-categories.resolver.js';

export const categoryModule: SubgraphModule<CatalogContext> = {
  name: 'categories',
  entities: [CategoryEntity, ProductCategoryEntity],
  resolvers: [CategoryResolver, ProductCategoriesResolver],
  loaders: categoryLoaders,
};
