// Agent context: what an agent keeps per user and conversation, and its API.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { AiContext } from '../context.js';
import { AgentContextEntity } from './agent-context.entity.js';
import { AgentContextResolver } from './agent-context.resolver.js';

export const agentContextModule: SubgraphModule<AiContext> = {
  name: 'agents',
  entities: [AgentContextEntity],
  resolvers: [AgentContextResolver],
};
