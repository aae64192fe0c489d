// Attributes kept as given (lib/extra-attributes.ts): one jsonb column on each platform record
// whose fields the platform document does not show. Same table, so tenant-scoped like the row.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261129051030_extra_attributes extends Migration {
  override async up(): Promise<void> {
    this.addSql("alter table \"platform\".\"account_notification_settings\" add \"extra_attributes\" jsonb not null default '{}'");
    this.addSql("alter table \"platform\".\"account_exchanges\" add \"extra_attributes\" jsonb not null default '{}'");
    this.addSql("alter table \"platform\".\"data_transfers\" add \"extra_attributes\" jsonb not null default '{}'");
    this.addSql("alter table \"platform\".\"account_credentials\" add \"extra_attributes\" jsonb not null default '{}'");
    this.addSql("alter table \"platform\".\"block_licenses\" add \"extra_attributes\" jsonb not null default '{}'");
    this.addSql("alter table \"platform\".\"account_details\" add \"extra_attributes\" jsonb not null default '{}'");
    this.addSql("alter table \"platform\".\"subscriptions\" add \"extra_attributes\" jsonb not null default '{}'");
    this.addSql("alter table \"platform\".\"user_accesses\" add \"extra_attributes\" jsonb not null default '{}'");
  }
}
