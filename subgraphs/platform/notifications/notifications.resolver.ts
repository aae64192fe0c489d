import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver, Directive } from 'type-graphql';
import type { PlatformContext } from '../context.js';
import { NotificationSettingsInput } from './notifications.inputs.js';
import { AppWebhookSecret, NotificationSettings, toDelivery, toNotificationSettings, WebhookDelivery } from './notifications.type.js';
import * as notifications from './notifications.service.js';

@Resolver()
export class NotificationsResolver {
  @Authorized('platform:read')
  @Query(() => NotificationSettings, { description: 'Defaults (no URL, all events, enabled) until first set' })
  async notificationSettings(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string): Promise<NotificationSettings> {
    const r = await notifications.getSettings(ctx, accountUrlId);
    return toNotificationSettings(r.accountId, r.row);
  }

  @Authorized('platform:manage')
  @Mutation(() => NotificationSettings)
  async updateNotificationSettings(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('input', () => NotificationSettingsInput) input: NotificationSettingsInput,
  ): Promise<NotificationSettings> {
    const r = await notifications.updateSettings(ctx, accountUrlId, input);
    return toNotificationSettings(r.accountId, r.row);
  }

  @Authorized('platform:read')
  @Directive('@listSize(slicingArguments: ["limit"], requireOneSlicingArgument: false)')
  @Query(() => [WebhookDelivery], { description: "The account's latest webhook deliveries, newest first" })
  async webhookDeliveries(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('status', { nullable: true, description: 'pending, delivering, delivered, failed' }) status?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1-200, default 50' }) limit?: number,
  ): Promise<WebhookDelivery[]> {
    return (await notifications.listDeliveries(ctx, accountUrlId, status, limit)).map(toDelivery);
  }

  @Authorized('platform:manage')
  @Mutation(() => AppWebhookSecret, { description: "Create or roll the app's webhook signing secret; the value is shown only in this response" })
  async rollAppWebhookSecret(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('appId', () => ID) appId: string): Promise<AppWebhookSecret> {
    return Object.assign(new AppWebhookSecret(), await notifications.rollWebhookSecret(ctx, accountUrlId, appId));
  }
}
