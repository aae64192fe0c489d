import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Directive } from 'type-graphql';
import { SECRET_KEY } from '../../../lib/tenant.js';
import type { SearchContext } from '../context.js';
import * as webhooks from './webhook.service.js';
import { RegisterWebhookInput, SearchWebhook, SearchWebhookDelivery, toDelivery, toWebhook } from './webhook.type.js';

@Resolver(() => SearchWebhook)
export class WebhookResolver {
  @Authorized('search:write')
  @Mutation(() => SearchWebhook, { description: 'Register a webhook for search events (deliveries signed with X-Webhook-Signature, see docs/kernel.md)' })
  async registerSearchWebhook(@Ctx() ctx: SearchContext, @Arg('input', () => RegisterWebhookInput) input: RegisterWebhookInput): Promise<SearchWebhook> {
    return toWebhook(await webhooks.registerWebhook(ctx, input));
  }

  @Authorized('search:write')
  @Mutation(() => SearchWebhook, { description: 'Stop a webhook (queued deliveries are still sent)' })
  async deleteSearchWebhook(@Ctx() ctx: SearchContext, @Arg('id', () => ID) id: string): Promise<SearchWebhook> {
    return toWebhook(await webhooks.deleteWebhook(ctx, id));
  }

  @Authorized('search:read', SECRET_KEY)
  @Query(() => [SearchWebhook], { description: 'Active webhooks of the calling app, oldest first' })
  async searchWebhooks(@Ctx() ctx: SearchContext): Promise<SearchWebhook[]> {
    return (await webhooks.listWebhooks(ctx)).map(toWebhook);
  }

  @Authorized('search:read', SECRET_KEY)
  @Query(() => SearchWebhook)
  async searchWebhook(@Ctx() ctx: SearchContext, @Arg('id', () => ID) id: string): Promise<SearchWebhook> {
    return toWebhook(await webhooks.getWebhook(ctx, id));
  }

  @Authorized('search:read')
  @Directive('@listSize(slicingArguments: ["limit"], requireOneSlicingArgument: false)')
  @FieldResolver(() => [SearchWebhookDelivery], { description: 'Latest deliveries first, with every attempt' })
  async deliveries(@Root() hook: SearchWebhook, @Ctx() ctx: SearchContext, @Arg('limit', () => Int, { nullable: true }) limit?: number): Promise<SearchWebhookDelivery[]> {
    return (await webhooks.deliveries(ctx, hook.id, limit)).map(toDelivery);
  }
}
