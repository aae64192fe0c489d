// What the AI service adds to the platform's App entity (its identities).
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { AppIdentitiesResolver, appReference } from './app.resolver.js';

export const appModule: SubgraphModule<AiContext> = {
  name: 'apps',
  resolvers: [AppIdentitiesResolver],
  referenceResolvers: appReference,
};
