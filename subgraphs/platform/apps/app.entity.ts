import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

export const APP_TYPES = ['web', 'mobile', 'backend', 'desktop', 'iot'] as const;
export const APP_PURPOSES = ['production', 'development', 'internal', 'demo'] as const;
export const APP_STATUSES = ['active', 'suspended', 'archived'] as const;
export type AppType = (typeof APP_TYPES)[number];
export type AppPurpose = (typeof APP_PURPOSES)[number];
export type AppStatus = (typeof APP_STATUSES)[number];

export const APP_RATE_LIMIT = { default: 1000, min: 1, max: 100_000 } as const;

/**
 * A product inside an account. `id` is the app's unique_id: the federation key and the X-App-Id
 * value. `platform` duplicates account.platform so the platform filter needs no join.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'apps' })
@Index({ properties: ['account', 'createdAt'] })
export class AppEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('app');

  @ManyToOne(() => AccountEntity)
  account!: AccountEntity;

  @Index()
  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @Property({ length: 200 })
  name!: string;

  @Property({ type: 'text', nullable: true })
  description?: string;

  @Enum({ items: () => APP_TYPES, default: 'web' })
  appType: AppType & Opt = 'web';

  @Enum({ items: () => APP_PURPOSES, default: 'production' })
  purpose: AppPurpose & Opt = 'production';

  @Enum({ items: () => APP_STATUSES, default: 'active' })
  status: AppStatus & Opt = 'active';

  @Property({ default: false })
  oauthEnabled: boolean & Opt = false;

  @Property({ type: 'integer', default: APP_RATE_LIMIT.default })
  rateLimitPerMinute: number & Opt = APP_RATE_LIMIT.default;

  @Property({ length: 2048, nullable: true })
  webhookUrl?: string;

  @Property({ type: ArrayType })
  allowedOrigins: string[] & Opt = [];

  @Property({ length: 253, nullable: true })
  preferredDomain?: string;

  /** set by the domain verification operations only (../domains) */
  @Property({ default: false })
  domainVerified: boolean & Opt = false;

  @Property({ length: 64, nullable: true })
  domainVerificationToken?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  domainVerifiedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  domainCheckedAt?: Date | null;

  /** soft delete: the app and its keys stop working; rows stay for the records that point at them */
  @Property({ type: 'timestamptz', nullable: true })
  deletedAt?: Date | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
