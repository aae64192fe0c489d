import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AiContext } from '../context.js';
import { requireRegisteredUser } from '../identities/identity.service.js';
import { EmbeddingModel, EmbeddingsInput, EmbeddingsResult, SimilarityInput, SimilarityResult } from './embedding.types.js';
import * as embeddings from './embedding.service.js';

@Resolver()
export class EmbeddingResolver {
  @Authorized('ai:read')
  @Mutation(() => EmbeddingsResult, { description: 'One embedding per input' })
  createEmbeddings(@Ctx() ctx: AiContext, @Arg('input', () => EmbeddingsInput) input: EmbeddingsInput): Promise<EmbeddingsResult> {
    return embeddings.createEmbeddings(ctx, input);
  }

  @Authorized('ai:read')
  @Mutation(() => SimilarityResult, { description: 'Cosine similarity of the source to each target' })
  embeddingSimilarity(@Ctx() ctx: AiContext, @Arg('input', () => SimilarityInput) input: SimilarityInput): Promise<SimilarityResult> {
    return embeddings.similarity(ctx, input);
  }

  @Authorized('ai:read')
  @Query(() => [EmbeddingModel], { description: 'The embedding models installed in this deployment' })
  async embeddingModels(@Ctx() ctx: AiContext): Promise<EmbeddingModel[]> {
    await requireRegisteredUser(ctx);
    return embeddings.listEmbeddingModels(ctx);
  }
}
