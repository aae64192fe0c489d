import { Entity, ManyToOne, OneToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

/**
 * Where an account's events go besides its apps' webhooks: a team-chat incoming webhook (Slack
 * style). Its URL is a credential (whoever has it can post to the channel), so it is stored sealed
 * and shown masked; `events` holds names or patterns ('*', 'key.*', 'account.created').
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'account_notification_settings' })
export class NotificationSettingsEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('ntf');

  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @OneToOne(() => AccountEntity, { owner: true, unique: true })
  account!: AccountEntity;

  @Property({ type: 'text', nullable: true })
  teamChatUrlSealed?: string | null;

  /** scheme://host/…last four: enough to recognise, useless to post with */
  @Property({ length: 300, nullable: true })
  teamChatUrlMasked?: string | null;

  @Property({ type: ArrayType })
  events: string[] & Opt = ['*'];

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
