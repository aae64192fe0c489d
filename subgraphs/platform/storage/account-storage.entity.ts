import { Entity, Enum, ManyToOne, OneToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

export const STORAGE_BACKENDS = ['local', 's3'] as const;
export type StorageBackend = (typeof STORAGE_BACKENDS)[number];

/** The object store provisioned for an account: a prefix (`<account id>`) in the process's ObjectStore. */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'account_storage' })
export class AccountStorageEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('stor');

  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @OneToOne(() => AccountEntity, { owner: true, unique: true })
  account!: AccountEntity;

  @Enum({ items: () => STORAGE_BACKENDS })
  backend!: StorageBackend;

  /** key prefix of the account's objects */
  @Property({ length: 100 })
  prefix!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
