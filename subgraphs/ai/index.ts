// The ai subgraph: identities, plan limits, text analysis, moderation, embeddings and translation
// (document 2). Model code lives in ./models (no GraphQL, no HTTP); runtime.ts holds the loaded
// models of this process and travels to every request in its context.
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { appTenantFilter, scopeToApp } from '../../lib/tenant-entity.js';
import { createAiLoaders, type AiLoaders } from './context.js';
import { IdentityEntity } from './identities/identity.entity.js';
import { IdentityResolver } from './identities/identity.resolver.js';
import { identityReference } from './identities/identity.reference.js';
import { AppIdentitiesResolver, appReference } from './apps/app.resolver.js';
import { TextAnalysisResolver } from './text/text.resolver.js';
import { ModerationResolver } from './moderation/moderation.js';
import { EmbeddingResolver } from './embeddings/embedding.resolver.js';
import { TranslationResolver } from './translation/translation.js';
import { migrations } from './migrations/index.js';
import { AiRuntime } from './runtime.js';

const runtime = new AiRuntime();

export const ai: SubgraphDefinition<AiLoaders> = {
  name: 'ai',
  dbSchema: 'ai',
  resolvers: [IdentityResolver, AppIdentitiesResolver, TextAnalysisResolver, ModerationResolver, EmbeddingResolver, TranslationResolver],
  referenceResolvers: { ...identityReference, ...appReference },
  entities: [IdentityEntity],
  migrations,
  filters: appTenantFilter(['IdentityEntity']),
  scope: scopeToApp,
  createLoaders: (base) => createAiLoaders(base, runtime),
  // the text-model workers, the ONNX model directory, Apertium and the plan counters (runtime.ts)
  workers: async (deps) => [await runtime.start(deps)],
  health: () => runtime.health(),
};
