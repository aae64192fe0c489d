import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { DEPLOYMENT_MODELS, type DeploymentModel } from './capabilities.rules.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

export const ACCOUNT_STATUSES = ['active', 'suspended', 'closed'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/**
 * A customer of a platform. Platform-scoped: the `tenant` filter (see ../tenancy.ts) limits
 * every query to the caller's platform. Soft-deleted rows keep their code and url_id reserved.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'accounts' })
@Unique({ properties: ['platform', 'code'] })
@Unique({ properties: ['platform', 'urlId'] })
@Index({ properties: ['platform', 'createdAt'] })
export class AccountEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('acct');

  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @Property({ length: 200 })
  name!: string;

  @Property({ length: 64 })
  code!: string;

  @Property({ length: 64 })
  urlId!: string;

  @Enum({ items: () => ACCOUNT_STATUSES, default: 'active' })
  status: AccountStatus & Opt = 'active';

  @Property({ length: 253, nullable: true })
  preferredDomain?: string;

  @Property({ length: 35, nullable: true })
  preferredLanguage?: string;

  @Enum({ items: () => DEPLOYMENT_MODELS, default: 'shared_cloud' })
  deploymentModel: DeploymentModel & Opt = 'shared_cloud';

  /** set by the domain verification operations only (../domains) */
  @Property({ default: false })
  domainVerified: boolean & Opt = false;

  @Property({ length: 64, nullable: true })
  domainVerificationToken?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  domainVerifiedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  domainCheckedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  deletedAt?: Date | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
