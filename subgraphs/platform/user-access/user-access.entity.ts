import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { AppEntity } from '../apps/app.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { ACCESS_ROLES, ACCESS_STATUSES, ACCESS_TARGETS, type AccessRole, type AccessStatus, type AccessTarget } from './user-access.rules.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

/**
 * A user's access to an account or to one app. `targetId` is the account's or app's unique id;
 * `account` is always set (for an app grant: the app's account) so listing and tenancy need no
 * join. At most ONE non-revoked record per (user, target): the partial unique index below, which
 * the grant's INSERT ... ON CONFLICT relies on. Revoked records stay as history.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'user_accesses' })
@Unique({ name: 'user_accesses_live_target_unique', properties: ['userId', 'targetId'], where: "status <> 'revoked'" })
@Index({ properties: ['platform', 'userId', 'createdAt'] })
export class UserAccessEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('uac');

  @ManyToOne(() => PlatformEntity, { deleteRule: 'cascade' })
  platform!: PlatformEntity;

  /** the user's unique id (a JWT `sub`) */
  @Property({ length: 200 })
  userId!: string;

  @Enum({ items: () => ACCESS_TARGETS })
  targetType!: AccessTarget;

  @Property({ length: 32 })
  targetId!: string;

  @Index()
  @ManyToOne(() => AccountEntity, { deleteRule: 'cascade' })
  account!: AccountEntity;

  @Index()
  @ManyToOne(() => AppEntity, { nullable: true, deleteRule: 'cascade' })
  app?: AppEntity | null;

  @Enum({ items: () => ACCESS_ROLES })
  role!: AccessRole;

  @Enum({ items: () => ACCESS_STATUSES, default: 'active' })
  status: AccessStatus & Opt = 'active';

  /** JWT subject of the caller who granted it */
  @Property({ length: 200, nullable: true })
  grantedBy?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  suspendedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;

  /** attributes the API documents do not list, kept as given (lib/extra-attributes.ts) */
  @Property({ type: 'json', default: '{}' })
  extraAttributes: Record<string, unknown> & Opt = {};

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
