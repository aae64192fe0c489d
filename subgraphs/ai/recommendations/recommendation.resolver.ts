import { Arg, Ctx, Mutation, Resolver, Directive } from 'type-graphql';
import type { AiContext } from '../context.js';
import { RecommendationEventAck, RecommendationEventInput, RecommendationInput, RecommendationResult } from './recommendation.types.js';
import * as recs from './recommendation.service.js';

// Access (key, scope, registered user) and the plan's request rate are checked by the service.
@Resolver()
export class RecommendationResolver {
  @Mutation(() => RecommendationEventAck, { description: 'Record a user event (scope ai:write); the model includes it after its next refresh' })
  recordRecommendationEvent(@Ctx() ctx: AiContext, @Arg('input', () => RecommendationEventInput) input: RecommendationEventInput): Promise<RecommendationEventAck> {
    return recs.recordEvent(ctx, input);
  }

  @Directive('@cost(weight: 20)')
  @Mutation(() => RecommendationResult, { description: 'Recommendations for a user, an item or a session context, with score, reason and model_version' })
  recommendations(@Ctx() ctx: AiContext, @Arg('input', () => RecommendationInput) input: RecommendationInput): Promise<RecommendationResult> {
    return recs.recommend(ctx, input);
  }
}
