import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

export const CREDENTIAL_TYPES = ['api_key', 'access_key', 'oauth_client', 'service_account', 'basic_auth', 'token'] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

/**
 * A third-party or cloud credential of an account (/accounts/:url_id/keys). `secret_sealed` is
 * AES-256-GCM under the master key (lib/crypto.ts), bound to this row's id; the plaintext is never
 * returned after it is written: reads show the last four characters.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'account_credentials' })
@Unique({ properties: ['account', 'name'] })
@Index({ properties: ['account', 'createdAt'] })
export class CredentialEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('cred');

  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @ManyToOne(() => AccountEntity)
  account!: AccountEntity;

  @Property({ length: 100 })
  name!: string;

  /** who issued it: stripe, aws, sendgrid… (free text, lower-case) */
  @Property({ length: 64 })
  provider!: string;

  @Enum({ items: () => CREDENTIAL_TYPES })
  credentialType!: CredentialType;

  /** the non-secret half, shown as is: an access key id, a client id, a user name */
  @Property({ length: 500, nullable: true })
  identifier?: string | null;

  @Property({ type: 'text' })
  secretSealed!: string;

  @Property({ length: 4 })
  secretLastFour: string & Opt = '';

  @Property({ type: 'json' })
  metadata: Record<string, unknown> & Opt = {};

  @Property({ type: 'timestamptz', nullable: true })
  expiresAt?: Date | null;

  @Property({ type: 'timestamptz' })
  secretUpdatedAt: Date & Opt = new Date();

  /** attributes the API documents do not list, kept as given (lib/extra-attributes.ts) */
  @Property({ type: 'json', default: '{}' })
  extraAttributes: Record<string, unknown> & Opt = {};

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
