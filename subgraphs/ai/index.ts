// The ai subgraph: identities, plan limits, text analysis, moderation, embeddings and translation,
// custom classifiers, recommendations, prompts and agent context. Model code lives in ./models (no
// GraphQL, no HTTP); runtime.ts holds the loaded models of this process, on every request as
// ctx.runtime. One module per aggregate (`<aggregate>/<aggregate>.module.ts`: its entities,
// resolvers, reference resolvers, loaders, job kinds and workers), merged here by composeModules.
import { AI_EVENT_TYPES } from './event-types.js';
import { composeModules } from '../../lib/subgraph-module.js';
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { AI_ERRORS } from './error-codes.js';
import { AI_SUBSCRIPTIONS } from './subscription-fields.js';
import { scopeToApp } from '../../lib/tenant-entity.js';
import type { AiContext, AiLoaders } from './context.js';
import { migrations } from './migrations/index.js';
import { aiHealth, createAiRuntime, type AiRuntime } from './runtime.js';
// imported in the order of the list below: type-graphql orders the schema's fields as their classes load
import { batchModule } from './batches/batch.module.js';
import { identityModule } from './identities/identity.module.js';
import { appModule } from './apps/app.module.js';
import { textModule } from './text/text.module.js';
import { moderationModule } from './moderation/moderation.module.js';
import { embeddingModule } from './embeddings/embedding.module.js';
import { translationModule } from './translation/translation.module.js';
import { webhookModule } from './webhooks/webhook.module.js';
import { productModule } from './products/product.module.js';
import { imageModule } from './images/image.module.js';
import { modelChoiceModule } from './model-choices/model-choice.module.js';
import { classifierModule } from './classifiers/classifier.module.js';
import { recommendationModule } from './recommendations/recommendation.module.js';
import { promptModule } from './prompts/prompt.module.js';
import { agentContextModule } from './agents/agent-context.module.js';

const modules = composeModules<AiLoaders, AiContext>(
  [
    batchModule,
    identityModule,
    appModule,
    textModule,
    moderationModule,
    embeddingModule,
    translationModule,
    // its worker (the webhook sender) starts before the job worker, and stops after it
    webhookModule,
    productModule,
    imageModule,
    modelChoiceModule,
    classifierModule,
    recommendationModule,
    promptModule,
    agentContextModule,
  ],
  { schema: 'ai' },
);

export const ai: SubgraphDefinition<AiLoaders, AiRuntime> = {
  name: 'ai',
  dbSchema: 'ai',
  resolvers: modules.resolvers as SubgraphDefinition['resolvers'],
  orphanedTypes: modules.orphanedTypes,
  referenceResolvers: modules.referenceResolvers,
  entities: modules.entities,
  migrations,
  errorCodes: AI_ERRORS,
  eventTypes: [AI_EVENT_TYPES],
  subscriptions: AI_SUBSCRIPTIONS,
  scope: scopeToApp,
  createLoaders: modules.createLoaders,
  // the text-model workers, the ONNX model directory, Apertium, catalogue names and the plan counters
  runtime: createAiRuntime,
  // the webhook sender, then the job worker of the modules' kinds (batches, classifier training, recommendation refreshes)
  workers: modules.workers,
  health: aiHealth,
};
