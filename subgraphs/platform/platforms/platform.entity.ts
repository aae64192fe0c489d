import { Entity, Enum, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';

export const PLATFORM_STATUSES = ['active', 'inactive', 'suspended'] as const;
export type PlatformStatus = (typeof PLATFORM_STATUSES)[number];

/** The operator's SaaS product: the root of the tenancy tree. Not itself platform-filtered. */
@Entity({ tableName: 'platforms' })
export class PlatformEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('plat');

  @Unique()
  @Property({ length: 64 })
  urlId!: string;

  /** the value callers send in X-Platform */
  @Unique()
  @Property({ length: 64 })
  code!: string;

  @Property({ length: 200 })
  name!: string;

  @Property({ type: 'text', nullable: true })
  description?: string;

  @Property({ length: 320, nullable: true })
  email?: string;

  @Property({ length: 2048, nullable: true })
  website?: string;

  @Enum({ items: () => PLATFORM_STATUSES, default: 'active' })
  status: PlatformStatus & Opt = 'active';

  @Property({ default: true })
  enabled: boolean & Opt = true;

  @Property({ length: 80 })
  schemaName!: string;

  @Property({ type: 'json' })
  settings: Record<string, unknown> & Opt = {};

  @Property({ type: 'json' })
  metadata: Record<string, unknown> & Opt = {};

  /** soft delete: gone from lists and X-Platform lookups, restorable by platform:admin; the code stays reserved */
  @Property({ type: 'timestamptz', nullable: true })
  deletedAt?: Date | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
