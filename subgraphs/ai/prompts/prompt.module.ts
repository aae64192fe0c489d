// Prompts: templates, rendered prompts (numbered per tenant: lib/tenant-sequence) and executions, and their API.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { TenantSequenceEntity } from '../../../lib/tenant-sequence.js';
import { PromptEntity, PromptExecutionEntity, RenderedPromptEntity } from './prompt.entity.js';
import { PromptResolver } from './prompt.resolver.js';

export const promptModule: SubgraphModule<AiContext> = {
  name: 'prompts',
  entities: [PromptEntity, RenderedPromptEntity, PromptExecutionEntity, TenantSequenceEntity],
  resolvers: [PromptResolver],
};
