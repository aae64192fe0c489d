import { Entity, ManyToOne, OneToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { AppEntity } from '../apps/app.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

/**
 * The secret an app's webhook deliveries are signed with (HMAC-SHA256). Stored sealed, not hashed:
 * signing needs the value itself. Shown once, when created or rolled.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'app_webhook_secrets' })
export class AppWebhookSecretEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('whs');

  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @OneToOne(() => AppEntity, { owner: true, unique: true, deleteRule: 'cascade' })
  app!: AppEntity;

  @Property({ type: 'text' })
  secretSealed!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
