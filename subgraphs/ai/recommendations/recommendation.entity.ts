// Recommendation data of an app partition: the recorded events, and the model the refresh job
// (recommendation.job.ts) keeps up to date from them: per user and item the time-decayed weight,
// per item its norm and popularity, per item pair the co-occurrence dot product, per item its
// nearest neighbours, and the model's version and watermark. Requests read only the model tables.
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppKeyedEntity, AppScopedEntity } from '../../../lib/tenant-entity.js';

export const REC_EVENT_TYPES = ['view', 'click', 'add_to_cart', 'purchase', 'rating', 'like'] as const;
export type RecEventType = (typeof REC_EVENT_TYPES)[number];

@Entity({ tableName: 'rec_events' })
@Index({ properties: ['appId', 'environment', 'id'] })
export class RecEventEntity extends AppScopedEntity {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string & Opt;

  @Property({ length: 255 })
  userId!: string;

  @Property({ length: 255 })
  itemId!: string;

  @Enum({ items: () => REC_EVENT_TYPES })
  eventType!: RecEventType;

  /** the event's weight before time decay (recommendation.rules.ts) */
  @Property({ type: 'double' })
  weight!: number;

  @Property({ type: 'timestamptz' })
  occurredAt!: Date;

  @Property({ type: 'json', nullable: true })
  metadata?: Record<string, unknown> | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

@Entity({ tableName: 'rec_user_items' })
export class RecUserItemEntity extends AppKeyedEntity {
  @PrimaryKey({ length: 255 })
  userId!: string;

  @PrimaryKey({ length: 255 })
  itemId!: string;

  /** Σ weight · 2^((t − anchor)/half-life) of the user's events on the item */
  @Property({ type: 'double' })
  strength!: number;

  @Property({ type: 'timestamptz' })
  lastAt!: Date;
}

@Entity({ tableName: 'rec_items' })
export class RecItemEntity extends AppKeyedEntity {
  @PrimaryKey({ length: 255 })
  itemId!: string;

  /** Σ over users of √strength² (the squared norm of the item's vector of √strengths) */
  @Property({ type: 'double' })
  norm2!: number;

  /** Σ over users of strength (time-decayed popularity) */
  @Property({ type: 'double' })
  popularity!: number;

  @Property({ type: 'integer' })
  events!: number;

  /** scalar fields of the item's events' metadata (latest wins), for filters */
  @Property({ type: 'json' })
  attributes!: Record<string, unknown>;
}

@Entity({ tableName: 'rec_pairs' })
export class RecPairEntity extends AppKeyedEntity {
  @PrimaryKey({ length: 255 })
  itemId!: string;

  @PrimaryKey({ length: 255 })
  otherId!: string;

  /** Σ over users of √strength(item) · √strength(other) */
  @Property({ type: 'double' })
  dot!: number;
}

@Entity({ tableName: 'rec_neighbors' })
@Index({ properties: ['appId', 'environment', 'itemId', 'score'] })
export class RecNeighborEntity extends AppKeyedEntity {
  @PrimaryKey({ length: 255 })
  itemId!: string;

  @PrimaryKey({ length: 255 })
  neighborId!: string;

  /** sim(item → neighbour) = dot / norm2(item): the weighted share of the item's users who also chose the neighbour */
  @Property({ type: 'double' })
  score!: number;
}

@Entity({ tableName: 'rec_models' })
export class RecModelEntity extends AppKeyedEntity {
  /** one row per app partition */
  @PrimaryKey({ length: 16 })
  name: string & Opt = 'item-item';

  @Property({ type: 'integer' })
  version!: number;

  /** the last event the model includes */
  @Property({ type: 'bigint' })
  lastEventId!: string;

  @Property({ type: 'integer' })
  events!: number;

  @Property({ type: 'timestamptz' })
  refreshedAt!: Date;
}
