import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { BROKER_TYPES, type BrokerType } from './broker-url.rules.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

/**
 * An account's message-broker configuration (/accounts/:url_id/exchange). The URL is stored
 * without credentials; the password (or secret access key) is sealed like a credential.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'account_exchanges' })
@Unique({ properties: ['account', 'name'] })
@Index({ properties: ['account', 'createdAt'] })
export class ExchangeEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('exch');

  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @ManyToOne(() => AccountEntity)
  account!: AccountEntity;

  @Property({ length: 100 })
  name!: string;

  @Enum({ items: () => BROKER_TYPES })
  brokerType!: BrokerType;

  /** connection URL without user info */
  @Property({ length: 2048 })
  url!: string;

  @Property({ length: 500, nullable: true })
  username?: string | null;

  @Property({ type: 'text', nullable: true })
  secretSealed?: string | null;

  @Property({ length: 4 })
  secretLastFour: string & Opt = '';

  /** broker-specific, non-secret settings: vhost, topic prefix, queue, region… */
  @Property({ type: 'json' })
  options: Record<string, unknown> & Opt = {};

  @Property({ default: true })
  enabled: boolean & Opt = true;

  /** attributes the API documents do not list, kept as given (lib/extra-attributes.ts) */
  @Property({ type: 'json', default: '{}' })
  extraAttributes: Record<string, unknown> & Opt = {};

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
