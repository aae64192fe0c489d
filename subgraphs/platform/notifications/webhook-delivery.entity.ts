import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { AppEntity } from '../apps/app.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { AccountEventEntity } from './account-event.entity.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

export const DELIVERY_TARGETS = ['team_chat', 'app'] as const;
export type DeliveryTarget = (typeof DELIVERY_TARGETS)[number];
/** pending → delivering → delivered | pending (retry, later) | failed (attempts used up, or refused for good) */
export const DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event to one target. The worker claims due rows with FOR UPDATE SKIP LOCKED, so replicas
 * never deliver the same row at once; `locked_until` frees rows of a worker that died mid-delivery.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'webhook_deliveries' })
@Index({ properties: ['status', 'nextAttemptAt'] })
@Index({ properties: ['account', 'createdAt'] })
export class WebhookDeliveryEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('whd');

  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @ManyToOne(() => AccountEntity)
  account!: AccountEntity;

  @ManyToOne(() => AccountEventEntity)
  event!: AccountEventEntity;

  @Enum({ items: () => DELIVERY_TARGETS })
  targetKind!: DeliveryTarget;

  @ManyToOne(() => AppEntity, { nullable: true })
  app?: AppEntity | null;

  /** display form of the target (team-chat URLs masked) */
  @Property({ length: 2048 })
  url!: string;

  /** the full target URL, sealed (team-chat URLs are credentials) */
  @Property({ type: 'text' })
  urlSealed!: string;

  @Enum({ items: () => DELIVERY_STATUSES, default: 'pending' })
  status: DeliveryStatus & Opt = 'pending';

  @Property({ type: 'integer', default: 0 })
  attempts: number & Opt = 0;

  @Property({ type: 'integer' })
  maxAttempts!: number;

  @Property({ type: 'timestamptz' })
  nextAttemptAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  lockedUntil?: Date | null;

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
