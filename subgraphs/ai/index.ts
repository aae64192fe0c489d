// The ai subgraph: identities (this issue); analysis, prompts, agents, classifiers come later.
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { AI_ERRORS } from './error-codes.js';
import { scopeToApp } from '../../lib/tenant-entity.js';
import { createAiLoaders, type AiLoaders } from './context.js';
import { IdentityEntity } from './identities/identity.entity.js';
import { IdentityResolver } from './identities/identity.resolver.js';
import { identityReference } from './identities/identity.reference.js';
import { AppIdentitiesResolver, appReference } from './apps/app.resolver.js';
import { migrations } from './migrations/index.js';

export const ai: SubgraphDefinition<AiLoaders> = {
  name: 'ai',
  dbSchema: 'ai',
  resolvers: [IdentityResolver, AppIdentitiesResolver],
  referenceResolvers: { ...identityReference, ...appReference },
  entities: [IdentityEntity],
  migrations,
  errorCodes: AI_ERRORS,
  scope: scopeToApp,
  createLoaders: createAiLoaders,
};
