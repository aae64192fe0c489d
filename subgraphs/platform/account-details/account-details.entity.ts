import { Entity, ManyToOne, OneToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

export interface PostalAddress {
  line1?: string;
  line2?: string;
  city?: string;
  region?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2, upper case */
  country?: string;
}

export interface Contact {
  name?: string;
  email?: string;
  phone?: string;
}

export interface Branding {
  primaryColor?: string;
  secondaryColor?: string;
  accentColor?: string;
}

/**
 * Address, contact and branding of an account (one row per account). The logo is set only by
 * publishing an uploaded image (storage/logo.service.ts): `logo_url` is read-only through /details.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'account_details' })
export class AccountDetailsEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('acdt');

  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @OneToOne(() => AccountEntity, { owner: true, unique: true })
  account!: AccountEntity;

  @Property({ length: 200, nullable: true })
  legalName?: string | null;

  @Property({ length: 64, nullable: true })
  taxId?: string | null;

  @Property({ length: 2048, nullable: true })
  website?: string | null;

  @Property({ type: 'json' })
  address: PostalAddress & Opt = {};

  @Property({ type: 'json' })
  contact: Contact & Opt = {};

  @Property({ type: 'json' })
  branding: Branding & Opt = {};

  @Property({ length: 2048, nullable: true })
  logoUrl?: string | null;

  /** the published logo's object key in the account's store */
  @Property({ length: 300, nullable: true })
  logoObjectKey?: string | null;

  /** attributes the API documents do not list, kept as given (lib/extra-attributes.ts) */
  @Property({ type: 'json', default: '{}' })
  extraAttributes: Record<string, unknown> & Opt = {};

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
