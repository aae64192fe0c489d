// Product webhooks: POST/GET/DELETE /v1/webhooks, GET /v1/webhooks/:id and its delivery log, on the
// lib endpoints (lib/webhooks), owned by the caller's app partition. Deliveries are signed
// (X-Webhook-Signature) and retried with backoff.
import { Arg, Authorized, Ctx, Directive, Field, FieldResolver, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { WebhookAttemptFields, WebhookDeliveryFields } from '../../../lib/webhooks/delivery.type.js';
import { appEndpoints, deliveryView, type WebhookEndpointEntity } from '../../../lib/webhooks/index.js';
import { SECRET_KEY } from '../../../lib/tenant.js';
import type { CatalogContext } from '../context.js';
import { CATALOG_EVENTS } from './catalog.events.js';

const endpoints = appEndpoints({ events: CATALOG_EVENTS, patterns: true, urlError: 'VALIDATION_FAILED', notFound: 'NOT_FOUND', idParameter: 'id', maxEndpoints: 20 });

@InputType()
export class RegisterProductWebhookInput {
  @Field({ description: 'http(s) URL of a public address' }) url!: string;
  @Field(() => [String], { description: `${CATALOG_EVENTS.join(', ')}; also product.* or *` }) events!: string[];
  @Field({ description: 'HMAC-SHA256 key of X-Webhook-Signature (any non-empty string up to 4096 characters; 32 random bytes recommended); never returned' }) secret!: string;
}

@ObjectType()
export class ProductWebhook {
  @Field(() => ID) id!: string;
  @Field() url!: string;
  @Field(() => [String]) events!: string[];
  @Field() active!: boolean;
  @Field() createdAt!: Date;
}

@ObjectType()
export class ProductWebhookAttempt extends WebhookAttemptFields {}

@ObjectType()
export class ProductWebhookDelivery extends WebhookDeliveryFields {
  @Field(() => [ProductWebhookAttempt]) attemptLog!: ProductWebhookAttempt[];
}

const toWebhook = (w: WebhookEndpointEntity): ProductWebhook => Object.assign(new ProductWebhook(), { id: w.id, url: w.url, events: w.events, active: w.active, createdAt: w.createdAt });

@Resolver(() => ProductWebhook)
export class CatalogWebhookResolver {
  @Authorized('products:write')
  @Mutation(() => ProductWebhook, { description: 'Register a webhook for catalog events' })
  async registerProductWebhook(@Ctx() ctx: CatalogContext, @Arg('input', () => RegisterProductWebhookInput) input: RegisterProductWebhookInput): Promise<ProductWebhook> {
    const { secrets, allowPrivate } = ctx.runtime;
    return toWebhook(await endpoints.register(ctx, { secrets, allowPrivate }, input));
  }

  @Authorized('products:read', SECRET_KEY)
  @Query(() => [ProductWebhook], { description: 'Webhooks of the calling app' })
  async productWebhooks(@Ctx() ctx: CatalogContext): Promise<ProductWebhook[]> {
    return (await endpoints.list(ctx)).map(toWebhook);
  }

  @Authorized('products:read', SECRET_KEY)
  @Query(() => ProductWebhook, { description: 'One active webhook of the calling app' })
  async productWebhook(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string): Promise<ProductWebhook> {
    return toWebhook(await endpoints.get(ctx, id));
  }

  // reached through productWebhook(s) only, which take a secret key
  @Authorized('products:read')
  @Directive('@listSize(slicingArguments: ["limit"], requireOneSlicingArgument: false)')
  @FieldResolver(() => [ProductWebhookDelivery], { description: 'Latest deliveries first, each with every attempt' })
  async deliveries(@Root() hook: ProductWebhook, @Ctx() ctx: CatalogContext, @Arg('limit', () => Int, { nullable: true }) limit?: number | null): Promise<ProductWebhookDelivery[]> {
    return (await endpoints.deliveries(ctx, hook.id, limit)).map(deliveryView);
  }

  @Authorized('products:write')
  @Mutation(() => ProductWebhook, { description: 'Deactivate a webhook: no new deliveries' })
  async deleteProductWebhook(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string): Promise<ProductWebhook> {
    return toWebhook(await endpoints.deactivate(ctx, id));
  }
}
