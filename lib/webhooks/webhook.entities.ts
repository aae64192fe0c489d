// The three tables of lib/webhooks, created in the schema of every subgraph that lists
// `webhookEntities` among its entities (and a migration for them):
//
//   webhook_endpoints   where an owner wants events: URL, event names or patterns, sealed secret
//   webhook_deliveries  the outbox and the delivery log: one event to one target, with its state;
//                       each is sent by a job of the kernel queue (lib/jobs) written with it
//   webhook_attempts    every attempt of a delivery (status code, error, duration)
//
// `owner` is the tenant key the subgraph chose (ownerOfApp() for app partitions; the account id on
// the platform). Every query of lib/webhooks names the owner explicitly; no row is read without it.
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt } from '@mikro-orm/core';
import { newId } from '../ids.js';

export const DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed'] as const;
/** pending → delivering → delivered | pending (a retry, later) | failed (dead letter: attempts used up, or refused for good) */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

@Entity({ tableName: 'webhook_endpoints' })
@Index({ properties: ['owner', 'createdAt'] })
export class WebhookEndpointEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('whk');

  @Property({ length: 160 })
  owner!: string;

  @Property({ type: 'text' })
  url!: string;

  /** event names, or patterns: '*' (every event) and 'family.*' */
  @Property({ type: 'json' })
  events!: string[];

  /** the HMAC key, sealed with MASTER_KEY (AAD endpointSecretAad(id)); never returned */
  @Property({ type: 'text' })
  secretSealed!: string;

  @Property({ type: 'boolean', default: true })
  active: boolean & Opt = true;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

@Entity({ tableName: 'webhook_deliveries' })
@Index({ properties: ['owner', 'createdAt'] })
@Index({ properties: ['endpointId', 'createdAt'] })
export class WebhookDeliveryEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('whd');

  @Property({ length: 160 })
  owner!: string;

  /** the endpoint whose URL and secret are used at send time; null for a target given with the delivery */
  @Property({ length: 32, nullable: true })
  endpointId?: string | null;

  /** the subgraph's label of a target given with the delivery (e.g. 'app:<id>', 'team_chat') */
  @Property({ length: 100, nullable: true })
  target?: string | null;

  @Property({ length: 64 })
  event!: string;

  /** sent as X-Webhook-Id: what receivers de-duplicate on (the event id, or the delivery id) */
  @Property({ length: 64 })
  eventId!: string;

  /** what the log shows as the target (masked when the URL is a credential); null: the endpoint's URL */
  @Property({ length: 2048, nullable: true })
  displayUrl?: string | null;

  /** the target URL sealed (AAD deliveryUrlAad(id)); null: the endpoint's */
  @Property({ type: 'text', nullable: true })
  urlSealed?: string | null;

  /** the signing secret sealed (AAD deliverySecretAad(id)); null: the endpoint's, or unsigned when there is no endpoint */
  @Property({ type: 'text', nullable: true })
  secretSealed?: string | null;

  /** the exact body sent and signed; sealed (AAD deliveryBodyAad(id)) when bodySealed */
  @Property({ type: 'text' })
  body!: string;

  @Property({ type: 'boolean', default: false })
  bodySealed: boolean & Opt = false;

  @Enum({ items: () => DELIVERY_STATUSES, default: 'pending' })
  status: DeliveryStatus & Opt = 'pending';

  @Property({ type: 'integer', default: 0 })
  attempts: number & Opt = 0;

  @Property({ type: 'integer' })
  maxAttempts!: number;

  /** the kernel job (lib/jobs, kind webhooks.deliver) that sends it: its claims, retries, backoff and dead letter */
  @Property({ type: new BigIntType('string'), nullable: true })
  jobId?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastAttemptAt?: Date | null;

  @Property({ type: 'integer', nullable: true })
  lastStatusCode?: number | null;

  @Property({ type: 'text', nullable: true })
  lastError?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  deliveredAt?: Date | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
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

/** Add these to a subgraph's `entities` (and create its migration) to use lib/webhooks. */
export const webhookEntities = [WebhookEndpointEntity, WebhookDeliveryEntity, WebhookAttemptEntity];

export const endpointSecretAad = (endpointId: string) => `webhook-endpoint:${endpointId}:secret`;
export const deliveryUrlAad = (deliveryId: string) => `webhook-delivery:${deliveryId}:url`;
export const deliverySecretAad = (deliveryId: string) => `webhook-delivery:${deliveryId}:secret`;
export const deliveryBodyAad = (deliveryId: string) => `webhook-delivery:${deliveryId}:body`;

/** The owner key of an app's data partition (search, catalog, AI). */
export const ownerOfApp = (appId: string, environment: string) => `app:${appId}:${environment}`;
