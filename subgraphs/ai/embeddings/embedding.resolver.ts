import { Arg, Ctx, Mutation, Query, Resolver, Directive } from 'type-graphql';
import type { AiContext } from '../context.js';
import { requireRegisteredUser } from '../identities/identity.service.js';
import { AI_READ } from '../limits/limits.service.js';
import { EmbeddingModel, EmbeddingsInput, EmbeddingsResult, SimilarityInput, SimilarityResult } from './embedding.types.js';
import * as embeddings from './embedding.service.js';

// Access (key, ai:read, registered user) is checked by the services, in the order ai.md implies.
@Resolver()
export class EmbeddingResolver {
  @Directive('@cost(weight: 20)')
  @Mutation(() => EmbeddingsResult, { description: 'One embedding per input' })
  createEmbeddings(@Ctx() ctx: AiContext, @Arg('input', () => EmbeddingsInput) input: EmbeddingsInput): Promise<EmbeddingsResult> {
    return embeddings.createEmbeddings(ctx, input);
  }

  @Directive('@cost(weight: 20)')
  @Mutation(() => SimilarityResult, { description: 'Cosine similarity of the source to each target' })
  embeddingSimilarity(@Ctx() ctx: AiContext, @Arg('input', () => SimilarityInput) input: SimilarityInput): Promise<SimilarityResult> {
    return embeddings.similarity(ctx, input);
  }

  @Query(() => [EmbeddingModel], { description: 'The embedding models installed in this deployment' })
  async embeddingModels(@Ctx() ctx: AiContext): Promise<EmbeddingModel[]> {
    await requireRegisteredUser(ctx, AI_READ);
    return embeddings.listEmbeddingModels(ctx);
  }
}
