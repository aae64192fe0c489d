import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { base62, newId } from '../../../lib/ids.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

/** open → accepted | declined, each exactly once (a conditional UPDATE decides); expiry is a date, not a state. */
export const TRANSFER_STATUSES = ['open', 'accepted', 'declined'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** The public code: the only handle of the public flow, so it carries ~143 random bits. */
export function newTransferCode(): string {
  return `dt_${base62(24)}`;
}

/** What newTransferCode makes: anything else is no transfer, without a lookup. */
export const TRANSFER_CODE_RE = /^dt_[A-Za-z0-9]{24}$/;

/**
 * A data transfer an admin offers to a recipient outside the platform (an investor, an auditor, a
 * buyer). The public flow (no JWT) reaches it by `code` alone, so these rows are read there with
 * the platform filter off (data-transfer.repository.ts), scoped by the code itself.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'data_transfers' })
@Unique({ properties: ['code'] })
@Index({ properties: ['account', 'createdAt'] })
export class DataTransferEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('dtr');

  @Property({ length: 40 })
  code: string & Opt = newTransferCode();

  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @ManyToOne(() => AccountEntity)
  account!: AccountEntity;

  @Property({ length: 200 })
  title!: string;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Property({ length: 320 })
  recipientEmail!: string;

  @Property({ length: 200, nullable: true })
  recipientName?: string | null;

  /** the agreement the recipient accepts or declines */
  @Property({ type: 'text' })
  agreement!: string;

  /** what is transferred, for display (file names, sizes, links): no secrets */
  @Property({ type: 'json' })
  contents: Record<string, unknown> & Opt = {};

  @Enum({ items: () => TRANSFER_STATUSES, default: 'open' })
  status: TransferStatus & Opt = 'open';

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  decidedAt?: Date | null;

  @Property({ type: 'text', nullable: true })
  declineReason?: string | null;

  /** JWT subject of the admin who created it */
  @Property({ length: 200 })
  createdBy!: string;

  /** attributes the API documents do not list, kept as given (lib/extra-attributes.ts) */
  @Property({ type: 'json', default: '{}' })
  extraAttributes: Record<string, unknown> & Opt = {};

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}

/** A one-time access code: stored as its SHA-256, burned on use or after MAX_CODE_ATTEMPTS wrong tries. */
@Entity({ tableName: 'data_transfer_access_codes' })
@Index({ properties: ['transfer', 'createdAt'] })
export class DataTransferAccessCodeEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('dtc');

  @ManyToOne(() => DataTransferEntity)
  transfer!: DataTransferEntity;

  @Property({ length: 64 })
  codeHash!: string;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'integer', default: 0 })
  attempts: number & Opt = 0;

  @Property({ type: 'timestamptz', nullable: true })
  consumedAt?: Date | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

/**
 * The audit trail: append-only. A trigger (see the migration) raises on UPDATE and DELETE, so not
 * even a bug or a hand-written statement can rewrite history. `seq` orders entries of one instant.
 */
@Entity({ tableName: 'data_transfer_audit' })
@Index({ properties: ['transfer', 'seq'] })
export class DataTransferAuditEntity {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  seq!: string & Opt;

  @Property({ length: 32 })
  id: string & Opt = newId('dta');

  @ManyToOne(() => DataTransferEntity)
  transfer!: DataTransferEntity;

  /** created, details_viewed, access_requested, access_verified, access_denied, accepted, declined, event:<type> */
  @Property({ length: 64 })
  action!: string;

  /** admin:<user id>, recipient, public */
  @Property({ length: 220 })
  actor!: string;

  @Property({ type: 'json' })
  detail: Record<string, unknown> & Opt = {};

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
