import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { AppEntity } from '../apps/app.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

/**
 * One of the 17 blocks of the catalog. Global (not platform-scoped): the rows are seeded by a
 * migration with stable ids (`blk_auth`, `blk_crm`, ...) that clients may hard-code.
 */
@Entity({ tableName: 'blocks' })
export class BlockEntity {
  /** the block's unique_id, e.g. blk_jarvis */
  @PrimaryKey({ length: 32 })
  id!: string;

  @Unique()
  @Property({ length: 64 })
  code!: string;

  @Property({ length: 200 })
  name!: string;

  @Property({ type: 'text', nullable: true })
  description?: string;

  /** catalog order */
  @Property({ type: 'integer', default: 0 })
  position: number & Opt = 0;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}

/**
 * A block licensed to an account. One per (account, block): the unique constraint makes concurrent
 * license calls collapse into one row (INSERT ... ON CONFLICT DO NOTHING, block.repository.ts).
 * `platform` duplicates account.platform so the platform filter needs no join.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'block_licenses' })
@Unique({ properties: ['account', 'block'] })
export class BlockLicenseEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('lic');

  @Index()
  @ManyToOne(() => PlatformEntity, { deleteRule: 'cascade' })
  platform!: PlatformEntity;

  @ManyToOne(() => AccountEntity, { deleteRule: 'cascade' })
  account!: AccountEntity;

  @ManyToOne(() => BlockEntity)
  block!: BlockEntity;

  /** JWT subject of the caller who licensed it */
  @Property({ length: 200, nullable: true })
  licensedBy?: string | null;

  /** attributes the API documents do not list, kept as given (lib/extra-attributes.ts) */
  @Property({ type: 'json', default: '{}' })
  extraAttributes: Record<string, unknown> & Opt = {};

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

/**
 * A licensed block provisioned to one app of the same account. One per (app, block). The foreign
 * key to the license has no cascade on purpose: PostgreSQL itself refuses to remove a license that
 * is still provisioned, even when a provision races the removal.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'block_instances' })
@Unique({ properties: ['app', 'block'] })
export class BlockInstanceEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('bki');

  @Index()
  @ManyToOne(() => PlatformEntity, { deleteRule: 'cascade' })
  platform!: PlatformEntity;

  @ManyToOne(() => AccountEntity, { deleteRule: 'cascade' })
  account!: AccountEntity;

  @ManyToOne(() => AppEntity, { deleteRule: 'cascade' })
  app!: AppEntity;

  @ManyToOne(() => BlockEntity)
  block!: BlockEntity;

  @Index()
  @ManyToOne(() => BlockLicenseEntity)
  license!: BlockLicenseEntity;

  @Property({ length: 200, nullable: true })
  provisionedBy?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
