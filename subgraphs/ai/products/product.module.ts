// What the AI service adds to the catalog's Product entity (moderation of its text).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { ProductModerationResolver, productReference, ProductRef } from './product-moderation.js';

export const productModule: SubgraphModule<AiContext> = {
  name: 'products',
  resolvers: [ProductModerationResolver],
  // Product is the catalog's entity; this subgraph only adds fields to it
  orphanedTypes: [ProductRef],
  referenceResolvers: productReference,
};
