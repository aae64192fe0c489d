import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { AiContext } from '../context.js';
import { AgentContext, AgentContextFilter, AgentContextInput } from './agent-context.types.js';
import * as agents from './agent-context.service.js';

// Access (key, scope, registered user) and the plan's request rate are checked by the service.
@Resolver(() => AgentContext)
export class AgentContextResolver {
  @Mutation(() => AgentContext, { description: 'Add (or replace, by unique_id) an entry of an agent\'s context (scope ai:write)' })
  addAgentContext(@Ctx() ctx: AiContext, @Arg('agentId', () => ID) agentId: string, @Arg('input', () => AgentContextInput) input: AgentContextInput): Promise<AgentContext> {
    return agents.addAgentContext(ctx, agentId, input);
  }

  @Query(() => [AgentContext], { description: 'An agent\'s context: newest first, or ranked by similarity to filter.query' })
  agentContext(@Ctx() ctx: AiContext, @Arg('agentId', () => ID) agentId: string, @Arg('filter', () => AgentContextFilter, { nullable: true }) filter?: AgentContextFilter | null): Promise<AgentContext[]> {
    return agents.listAgentContext(ctx, agentId, filter ?? {});
  }
}
