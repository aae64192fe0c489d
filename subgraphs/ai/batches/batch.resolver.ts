import { Arg, Ctx, ID, Mutation, Query, Resolver, Directive } from 'type-graphql';
import type { AiContext } from '../context.js';
import { AiBatch, BatchInput } from './batch.types.js';
import * as batches from './batch.service.js';

// Access (key, ai:read, registered user) and the plan's request rate are checked by the service.
@Resolver(() => AiBatch)
export class BatchResolver {
  @Directive('@cost(weight: 50)')
  @Mutation(() => AiBatch, { description: 'Queue many texts for one analysis operation; batch.completed is published when done' })
  createAiBatch(@Ctx() ctx: AiContext, @Arg('input', () => BatchInput) input: BatchInput): Promise<AiBatch> {
    return batches.createBatch(ctx, input);
  }

  @Query(() => AiBatch, { description: 'A batch of the calling app, with its results once completed' })
  aiBatch(@Ctx() ctx: AiContext, @Arg('id', () => ID) id: string): Promise<AiBatch> {
    return batches.getBatch(ctx, id);
  }
}
