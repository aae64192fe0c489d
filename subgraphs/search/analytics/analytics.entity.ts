// Search analytics: every search (recorded by the service itself, or posted by a client as an
// event_type=search event) and every other client event (clicks...). Queries are stored normalised
// (trimmed, lower-case, single spaces), so "Lamp " and "lamp" count as one query.
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';

@Entity({ tableName: 'search_queries' })
@Index({ properties: ['indexId', 'createdAt'] })
export class SearchQueryEntity extends AppScopedEntity {
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number & Opt;

  @Property({ length: 32 })
  indexId!: string;

  @Property({ type: 'text' })
  query!: string;

  /** estimated total hits; null for client-posted search events that did not say */
  @Property({ type: 'integer', nullable: true })
  hits?: number | null;

  /** ids of the hits returned (the impressions), at most the first 100 */
  @Property({ type: 'json', nullable: true })
  hitIds?: string[] | null;

  @Property({ length: 256, nullable: true })
  userId?: string | null;

  @Property({ length: 256, nullable: true })
  sessionId?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

@Entity({ tableName: 'search_events' })
@Index({ properties: ['indexId', 'eventType', 'createdAt'] })
export class SearchEventEntity extends AppScopedEntity {
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number & Opt;

  @Property({ length: 32 })
  indexId!: string;

  @Property({ length: 32 })
  eventType!: string;

  @Property({ type: 'text', nullable: true })
  query?: string | null;

  @Property({ length: 511, nullable: true })
  documentId?: string | null;

  @Property({ type: 'integer', nullable: true })
  position?: number | null;

  @Property({ length: 256, nullable: true })
  userId?: string | null;

  @Property({ length: 256, nullable: true })
  sessionId?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
