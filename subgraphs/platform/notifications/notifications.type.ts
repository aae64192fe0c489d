import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';
import type { NotificationSettingsEntity } from './notification-settings.entity.js';
import type { DeliveryLogEntry } from '../../../lib/webhooks/index.js';

@ObjectType({ description: 'Team-chat notifications of an account; `id` is the account id' })
export class NotificationSettings {
  @Field(() => ID) id!: string;
  @Field({ nullable: true, description: 'masked: scheme://host/…last four' }) teamChatWebhookUrl?: string;
  @Field(() => [String]) events!: string[];
  @Field() enabled!: boolean;
  @Field(() => GraphQLJSONObject, { description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes!: Record<string, unknown>;
  @Field({ nullable: true }) updatedAt?: Date;
}

export function toNotificationSettings(accountId: string, e: NotificationSettingsEntity | null): NotificationSettings {
  const s = new NotificationSettings();
  s.id = accountId;
  s.teamChatWebhookUrl = e?.teamChatUrlMasked ?? undefined;
  s.events = e?.events ?? ['*'];
  s.enabled = e?.enabled ?? true;
  s.extraAttributes = e?.extraAttributes ?? {};
  s.updatedAt = e?.updatedAt;
  return s;
}

@ObjectType({ description: 'One account event on its way to one webhook' })
export class WebhookDelivery {
  @Field(() => ID) id!: string;
  @Field(() => ID) eventId!: string;
  @Field() event!: string;
  @Field({ description: 'team_chat or app' }) targetKind!: string;
  @Field(() => ID, { nullable: true }) appId?: string;
  @Field({ description: 'target (team-chat URLs masked)' }) url!: string;
  @Field({ description: 'pending, delivering, delivered, failed' }) status!: string;
  @Field(() => Int) attempts!: number;
  @Field(() => Int) maxAttempts!: number;
  @Field({ nullable: true }) nextAttemptAt?: Date;
  @Field({ nullable: true }) lastAttemptAt?: Date;
  @Field(() => Int, { nullable: true }) lastStatusCode?: number;
  @Field({ nullable: true }) lastError?: string;
  @Field({ nullable: true }) deliveredAt?: Date;
  @Field() createdAt!: Date;
}

export function toDelivery({ delivery: e, nextAttemptAt }: DeliveryLogEntry): WebhookDelivery {
  const d = new WebhookDelivery();
  const app = e.target?.startsWith('app:') ? e.target.slice(4) : undefined;
  d.id = e.id;
  d.eventId = e.eventId;
  d.event = e.event;
  d.targetKind = app ? 'app' : (e.target ?? 'app');
  d.appId = app;
  d.url = e.displayUrl ?? '';
  d.status = e.status;
  d.attempts = e.attempts;
  d.maxAttempts = e.maxAttempts;
  d.nextAttemptAt = e.status === 'pending' ? (nextAttemptAt ?? undefined) : undefined;
  d.lastAttemptAt = e.lastAttemptAt ?? undefined;
  d.lastStatusCode = e.lastStatusCode ?? undefined;
  d.lastError = e.lastError ?? undefined;
  d.deliveredAt = e.deliveredAt ?? undefined;
  d.createdAt = e.createdAt;
  return d;
}

@ObjectType({ description: "An app's webhook signing secret: shown once, when created or rolled" })
export class AppWebhookSecret {
  @Field(() => ID, { description: 'the app id' }) id!: string;
  @Field({ description: 'whsec_…: verify X-Webhook-Signature with it' }) secret!: string;
  @Field() createdAt!: Date;
}
