import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { ArrayType, BigIntType, type Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import type { Environment } from '../../../lib/tenant.js';
import { AppEntity } from '../apps/app.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

export const KEY_TYPES = ['publishable', 'secret'] as const;
export const KEY_ENVIRONMENTS = ['test', 'live'] as const satisfies readonly Environment[];
export type KeyType = (typeof KEY_TYPES)[number];

/**
 * An API key of an app. The key value itself is never stored: only its SHA-256 (unique index, the
 * gateway's lookup path), its prefix and last four characters for the masked display.
 * `platform` duplicates app.platform so the platform filter needs no join.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'api_keys' })
@Index({ properties: ['app', 'createdAt'] })
export class ApiKeyEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('key');

  @ManyToOne(() => AppEntity)
  app!: AppEntity;

  @Index()
  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @Property({ length: 200 })
  name!: string;

  @Enum({ items: () => KEY_TYPES })
  keyType!: KeyType;

  @Enum({ items: () => KEY_ENVIRONMENTS, default: 'live' })
  environment: Environment & Opt = 'live';

  @Property({ type: ArrayType })
  scopes: string[] & Opt = [];

  /** null: the app's rate limit applies */
  @Property({ type: 'integer', nullable: true })
  rateLimitPerMinute?: number | null;

  @Property({ type: ArrayType })
  allowedIps: string[] & Opt = [];

  @Property({ type: ArrayType })
  allowedOrigins: string[] & Opt = [];

  @Property({ type: 'timestamptz', nullable: true })
  expiresAt?: Date | null;

  /** only ever changed by `usage_count = usage_count + n` (api-key.repository.ts) */
  @Property({ type: new BigIntType('number'), default: 0 })
  usageCount: number & Opt = 0;

  @Unique()
  @Property({ length: 64 })
  keyHash!: string;

  /**
   * rotate_secret (Stripe's roll): the value before the last rotation stays valid until
   * previousKeyExpiresAt. regenerate and revoke clear it.
   */
  @Index()
  @Property({ length: 64, nullable: true })
  previousKeyHash?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  previousKeyExpiresAt?: Date | null;

  /** when the value last changed (regenerate or rotate_secret) */
  @Property({ type: 'timestamptz', nullable: true })
  rotatedAt?: Date | null;

  /** e.g. sk_live_sh_ */
  @Property({ length: 16 })
  keyPrefix!: string;

  @Property({ length: 4 })
  lastFour!: string;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt?: Date | null;
}
