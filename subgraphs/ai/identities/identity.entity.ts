// A user of the authentication service, registered once per app partition. Every per-user AI
// record (conversations, executions, feedback, usage) will hang off this row.
import { Entity, Enum, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';

export const IDENTITY_STATUSES = ['active'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];

@Entity({ tableName: 'identities' })
// The unique constraint is what makes concurrent registrations of one user yield one row.
@Unique({ properties: ['appId', 'environment', 'userUniqueId'] })
export class IdentityEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('idn');

  @Property({ length: 255 })
  userUniqueId!: string;

  @Enum({ items: () => IDENTITY_STATUSES, default: 'active' })
  status: IdentityStatus & Opt = 'active';

  @Property({ type: 'timestamptz' })
  registeredAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
