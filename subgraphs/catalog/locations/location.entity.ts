import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';

export interface LocationAddress {
  line1?: string;
  line2?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
}

/**
 * A place that holds stock (warehouse, store…). `code` is unique per app partition; exactly one
 * location of a partition is the default (a partial unique index in the migration), where stock set
 * without a location (a product's `inventory.quantity`) sits.
 */
@Entity({ tableName: 'inventory_locations' })
@Unique({ properties: ['appId', 'environment', 'code'] })
@Index({ properties: ['appId', 'environment', 'createdAt'] })
export class LocationEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('loc');

  @Property({ length: 200 })
  name!: string;

  @Property({ length: 64 })
  code!: string;

  @Property({ length: 32, default: 'warehouse' })
  type: string & Opt = 'warehouse';

  @Property({ type: 'json', nullable: true })
  address?: LocationAddress | null;

  @Property({ type: 'boolean', default: false })
  isDefault: boolean & Opt = false;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
