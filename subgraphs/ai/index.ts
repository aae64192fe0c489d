// The ai subgraph: identities, plan limits, text analysis, moderation, embeddings and translation
// (document 2). Model code lives in ./models (no GraphQL, no HTTP); runtime.ts holds the loaded
// models of this process, on every request as ctx.runtime.
import { AI_EVENT_TYPES } from './event-types.js';
import type { SubgraphDefinition } from '../../lib/subgraph.js';
import { AI_ERRORS } from './error-codes.js';
import { AI_SUBSCRIPTIONS } from './subscription-fields.js';
import { scopeToApp } from '../../lib/tenant-entity.js';
import { createAiLoaders, type AiLoaders } from './context.js';
import { JobEntity, startJobWorker } from '../../lib/jobs/index.js';
import { webhookEntities } from '../../lib/webhooks/index.js';
import { IdentityEntity } from './identities/identity.entity.js';
import { TenantSequenceEntity } from '../../lib/tenant-sequence.js';
import { AiBatchEntity } from './batches/batch.entity.js';
import { batchJobKind } from './batches/batch.job.js';
import { BatchResolver } from './batches/batch.resolver.js';
import { IdentityResolver } from './identities/identity.resolver.js';
import { identityReference } from './identities/identity.reference.js';
import { AppIdentitiesResolver, appReference } from './apps/app.resolver.js';
import { TextAnalysisResolver } from './text/text.resolver.js';
import { ModerationResolver } from './moderation/moderation.js';
import { EmbeddingResolver } from './embeddings/embedding.resolver.js';
import { TranslationResolver } from './translation/translation.js';
import { AiWebhookResolver } from './webhooks/ai-webhook.js';
import { AiWebhookAdminResolver } from './webhooks/ai-webhook.admin.js';
import { ProductModerationResolver, productReference, ProductRef } from './products/product-moderation.js';
import { ImageAnalysisResolver } from './images/image.resolver.js';
import { migrations } from './migrations/index.js';
import { ModelChoiceEntity } from './model-choices/model-choice.entity.js';
import { ModelChoiceResolver } from './model-choices/model-choice.resolver.js';
// custom classifiers, recommendations, prompts, agent context
import { ClassifierEntity, ClassifierTrainingEntity } from './classifiers/classifier.entity.js';
import { ClassifierResolver } from './classifiers/classifier.resolver.js';
import { classifierTrainJobKind } from './classifiers/classifier.job.js';
import { RecEventEntity, RecItemEntity, RecModelEntity, RecNeighborEntity, RecPairEntity, RecUserItemEntity } from './recommendations/recommendation.entity.js';
import { RecommendationResolver } from './recommendations/recommendation.resolver.js';
import { recRefreshJobKind } from './recommendations/recommendation.job.js';
import { PromptEntity, PromptExecutionEntity, RenderedPromptEntity } from './prompts/prompt.entity.js';
import { PromptResolver } from './prompts/prompt.resolver.js';
import { AgentContextEntity } from './agents/agent-context.entity.js';
import { AgentContextResolver } from './agents/agent-context.resolver.js';

const AI_II_RESOLVERS = [ClassifierResolver, RecommendationResolver, PromptResolver, AgentContextResolver] as const;
const AI_II_ENTITIES = [ClassifierEntity, ClassifierTrainingEntity, RecEventEntity, RecUserItemEntity, RecItemEntity, RecPairEntity, RecNeighborEntity, RecModelEntity, PromptEntity, RenderedPromptEntity, PromptExecutionEntity, AgentContextEntity];
import { aiHealth, createAiRuntime, type AiRuntime } from './runtime.js';

export const ai: SubgraphDefinition<AiLoaders, AiRuntime> = {
  name: 'ai',
  dbSchema: 'ai',
  resolvers: [IdentityResolver, AppIdentitiesResolver, TextAnalysisResolver, ModerationResolver, EmbeddingResolver, TranslationResolver, BatchResolver, AiWebhookResolver, AiWebhookAdminResolver, ProductModerationResolver, ImageAnalysisResolver, ModelChoiceResolver, ...AI_II_RESOLVERS],
  // Product is the catalog's entity; this subgraph only adds fields to it
  orphanedTypes: [ProductRef],
  referenceResolvers: { ...identityReference, ...appReference, ...productReference },
  entities: [IdentityEntity, AiBatchEntity, JobEntity, TenantSequenceEntity, ...webhookEntities, ModelChoiceEntity, ...AI_II_ENTITIES],
  migrations,
  errorCodes: AI_ERRORS,
  eventTypes: [AI_EVENT_TYPES],
  subscriptions: AI_SUBSCRIPTIONS,
  scope: scopeToApp,
  createLoaders: createAiLoaders,
  // the text-model workers, the ONNX model directory, Apertium, catalogue names and the plan counters
  runtime: createAiRuntime,
  // batches run on the kernel job queue (ai.jobs); the webhook sender delivers AI events
  workers: async (deps) => {
    const jobs = await startJobWorker(deps, { schema: 'ai', kinds: [batchJobKind(deps), classifierTrainJobKind(deps), recRefreshJobKind(deps)] });
    await deps.runtime.webhooks.start();
    return [jobs, { stop: () => deps.runtime.webhooks.stop() }];
  },
  health: aiHealth,
};
