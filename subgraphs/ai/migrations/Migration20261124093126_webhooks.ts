import { Migration } from '@mikro-orm/migrations';

/** The kernel's webhook tables (lib/webhooks) in the ai schema: AI endpoints, deliveries and their attempt log. */
export class Migration20261124093126_webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"ai\".\"webhook_attempts\" (\"id\" bigserial primary key, \"delivery_id\" varchar(32) not null, \"attempt\" int not null, \"status_code\" int null, \"error\" text null, \"duration_ms\" int not null, \"created_at\" timestamptz not null)");
    this.addSql("create index \"webhook_attempts_delivery_id_index\" on \"ai\".\"webhook_attempts\" (\"delivery_id\")");
    this.addSql("create table \"ai\".\"webhook_deliveries\" (\"id\" varchar(32) not null, \"owner\" varchar(160) not null, \"endpoint_id\" varchar(32) null, \"target\" varchar(100) null, \"event\" varchar(64) not null, \"event_id\" varchar(64) not null, \"display_url\" varchar(2048) null, \"url_sealed\" text null, \"secret_sealed\" text null, \"body\" text not null, \"body_sealed\" boolean not null default false, \"status\" text not null default 'pending', \"attempts\" int not null default 0, \"max_attempts\" int not null, \"job_id\" bigint null, \"last_attempt_at\" timestamptz null, \"last_status_code\" int null, \"last_error\" text null, \"delivered_at\" timestamptz null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"webhook_deliveries_endpoint_id_created_at_index\" on \"ai\".\"webhook_deliveries\" (\"endpoint_id\", \"created_at\")");
    this.addSql("create index \"webhook_deliveries_owner_created_at_index\" on \"ai\".\"webhook_deliveries\" (\"owner\", \"created_at\")");
    this.addSql("create table \"ai\".\"webhook_endpoints\" (\"id\" varchar(32) not null, \"owner\" varchar(160) not null, \"url\" text not null, \"events\" jsonb not null, \"secret_sealed\" text not null, \"active\" boolean not null default true, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"webhook_endpoints_owner_created_at_index\" on \"ai\".\"webhook_endpoints\" (\"owner\", \"created_at\")");
    this.addSql("alter table \"ai\".\"webhook_deliveries\" add constraint \"webhook_deliveries_status_check\" check (\"status\" in ('pending', 'delivering', 'delivered', 'failed'))");
  }
}
