import { Migration } from '@mikro-orm/migrations';

export class Migration20261122091747_keys_domains_soft_delete extends Migration {
  override async up(): Promise<void> {
    this.addSql("alter table \"platform\".\"platforms\" add \"deleted_at\" timestamptz null");
    this.addSql("alter table \"platform\".\"accounts\" add \"domain_verified\" boolean not null default false, add \"domain_verification_token\" varchar(64) null, add \"domain_verified_at\" timestamptz null, add \"domain_checked_at\" timestamptz null");
    this.addSql("alter table \"platform\".\"apps\" add \"domain_verification_token\" varchar(64) null, add \"domain_verified_at\" timestamptz null, add \"domain_checked_at\" timestamptz null, add \"deleted_at\" timestamptz null");
    this.addSql("alter table \"platform\".\"api_keys\" add \"previous_key_hash\" varchar(64) null, add \"previous_key_expires_at\" timestamptz null, add \"rotated_at\" timestamptz null");
    this.addSql("create index \"api_keys_previous_key_hash_index\" on \"platform\".\"api_keys\" (\"previous_key_hash\")");
  }
}
