import { Entity, Enum, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';
import { PlatformEntity } from './platform.entity.js';

export const OPERATOR_ROLES = ['owner', 'operator'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * Who may operate a platform with a JWT (its `sub`) and with which platform scopes: a token reaches
 * a platform through such a row, a `platform` claim naming it, or the super-admin scope
 * (docs/security.md). The creator of a platform is its `owner` operator.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'platform_operators' })
@Unique({ properties: ['platform', 'userId'] })
export class PlatformOperatorEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('op');

  @ManyToOne(() => PlatformEntity, { deleteRule: 'cascade' })
  platform!: PlatformEntity;

  /** the operator's JWT `sub` */
  @Property({ length: 200 })
  userId!: string;

  /** the platform scopes the record grants; a token's platform scopes are capped to these */
  @Property({ type: 'json' })
  scopes!: string[];

  @Enum({ items: () => OPERATOR_ROLES, default: 'operator' })
  role: OperatorRole & Opt = 'operator';

  /** JWT subject of the caller who added it (null for the owner: nobody but the creator) */
  @Property({ length: 200, nullable: true })
  addedBy?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
