import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import type { AccountEventPayload } from '../../../lib/events.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

/** The outbox: one row per account event, written in the transaction of the change it describes. */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'account_events' })
@Index({ properties: ['account', 'occurredAt'] })
export class AccountEventEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('evt');

  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @ManyToOne(() => AccountEntity)
  account!: AccountEntity;

  @Property({ length: 64 })
  event!: string;

  /** the payload delivered (AccountEventPayload) */
  @Property({ type: 'json' })
  payload!: AccountEventPayload;

  /**
   * Fields only the app webhooks receive that must not sit in plaintext (a data-transfer access
   * code): sealed JSON, merged into `data` by the worker at delivery time.
   */
  @Property({ type: 'text', nullable: true })
  secretSealed?: string | null;

  /** one human line for team chat; never carries a secret */
  @Property({ type: 'text' })
  summary!: string;

  @Property({ type: 'timestamptz' })
  occurredAt: Date & Opt = new Date();
}
