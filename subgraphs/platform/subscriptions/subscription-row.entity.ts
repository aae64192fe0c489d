import { ManyToOne } from '@mikro-orm/decorators/legacy';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { SubscriptionEntity } from './subscription.entity.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';

/**
 * The columns of a row kept per subscription (its invoices, its history): the subscription, with its
 * account and platform beside it, so an account's or a platform's rows are read without a join and
 * scoped by platform.
 */
@TenantScoped({ platformId: 'platform' })
export abstract class SubscriptionRowEntity {
  @ManyToOne(() => SubscriptionEntity)
  subscription!: SubscriptionEntity;

  @ManyToOne(() => AccountEntity)
  account!: AccountEntity;

  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;
}
