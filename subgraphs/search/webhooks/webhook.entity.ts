// Webhooks of an app partition, their deliveries (an outbox: rows are written in the same
// transaction as the event's effects, then sent after commit) and every delivery attempt.
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';
import { SEARCH_WEBHOOK_EVENTS } from '../event-types.js';

export const WEBHOOK_EVENTS = SEARCH_WEBHOOK_EVENTS.names;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

@Entity({ tableName: 'webhooks' })
@Index({ properties: ['appId', 'environment', 'createdAt'] })
export class WebhookEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('whk');

  @Property({ type: 'text' })
  url!: string;

  @Property({ type: 'json' })
  events!: WebhookEvent[];

  /** the HMAC key of the signature; never returned */
  @Property({ type: 'text' })
  secret!: string;

  @Property({ type: 'boolean', default: true })
  active: boolean & Opt = true;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

@Entity({ tableName: 'webhook_deliveries' })
@Index({ properties: ['status', 'nextAttemptAt'] })
@Index({ properties: ['webhookId', 'createdAt'] })
export class WebhookDeliveryEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('whd');

  @Property({ length: 32 })
  webhookId!: string;

  @Property({ length: 40 })
  event!: string;

  /** the exact body that is signed and sent */
  @Property({ type: 'text' })
  body!: string;

  @Enum({ items: () => DELIVERY_STATUSES, default: 'pending' })
  status: DeliveryStatus & Opt = 'pending';

  @Property({ type: 'integer', default: 0 })
  attempts: number & Opt = 0;

  @Property({ type: 'timestamptz' })
  nextAttemptAt: Date & Opt = new Date();

  /** a dispatcher that died mid-send loses its claim when this passes */
  @Property({ type: 'timestamptz', nullable: true })
  leaseUntil?: Date | null;

  @Property({ type: 'integer', nullable: true })
  lastStatusCode?: number | null;

  @Property({ type: 'text', nullable: true })
  lastError?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  deliveredAt?: Date | null;
}

@Entity({ tableName: 'webhook_attempts' })
@Index({ properties: ['deliveryId'] })
export class WebhookAttemptEntity {
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number & Opt;

  @Property({ length: 32 })
  deliveryId!: string;

  @Property({ type: 'integer' })
  attempt!: number;

  @Property({ type: 'integer', nullable: true })
  statusCode?: number | null;

  @Property({ type: 'text', nullable: true })
  error?: string | null;

  @Property({ type: 'integer' })
  durationMs!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
