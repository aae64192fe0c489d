import { Migration } from '@mikro-orm/migrations';

export class Migration20261122092742_documents_tasks_webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"search\".\"documents\" (\"index_id\" varchar(32) not null, \"doc_id\" varchar(511) collate \"C\" not null, \"body\" jsonb null, \"task_id\" bigint not null, \"pos\" bigint not null, \"deleted\" boolean not null default false, primary key (\"index_id\", \"doc_id\"))");
    this.addSql("create index \"documents_index_id_pos_index\" on \"search\".\"documents\" (\"index_id\", \"pos\")");
    this.addSql("create index \"documents_index_id_task_id_index\" on \"search\".\"documents\" (\"index_id\", \"task_id\")");
    this.addSql("create table \"search\".\"index_snapshots\" (\"index_id\" varchar(32) not null, \"task_id\" bigint not null, \"data\" bytea not null, \"documents\" int not null, \"created_at\" timestamptz not null, primary key (\"index_id\"))");
    this.addSql("create table \"search\".\"search_events\" (\"id\" bigserial primary key, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"index_id\" varchar(32) not null, \"event_type\" varchar(32) not null, \"query\" text null, \"document_id\" varchar(511) null, \"position\" int null, \"user_id\" varchar(256) null, \"session_id\" varchar(256) null, \"created_at\" timestamptz not null)");
    this.addSql("create index \"search_events_app_id_index\" on \"search\".\"search_events\" (\"app_id\")");
    this.addSql("create index \"search_events_index_id_event_type_created_at_index\" on \"search\".\"search_events\" (\"index_id\", \"event_type\", \"created_at\")");
    this.addSql("create table \"search\".\"search_queries\" (\"id\" bigserial primary key, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"index_id\" varchar(32) not null, \"query\" text not null, \"hits\" int null, \"hit_ids\" jsonb null, \"user_id\" varchar(256) null, \"session_id\" varchar(256) null, \"created_at\" timestamptz not null)");
    this.addSql("create index \"search_queries_app_id_index\" on \"search\".\"search_queries\" (\"app_id\")");
    this.addSql("create index \"search_queries_index_id_created_at_index\" on \"search\".\"search_queries\" (\"index_id\", \"created_at\")");
    this.addSql("create table \"search\".\"tasks\" (\"id\" bigserial primary key, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"index_id\" varchar(32) null, \"index_uid\" varchar(400) collate \"C\" not null, \"type\" text not null, \"status\" text not null default 'enqueued', \"details\" jsonb not null, \"error\" jsonb null, \"enqueued_at\" timestamptz not null, \"started_at\" timestamptz null, \"finished_at\" timestamptz null, \"duration_ms\" int null, \"attempts\" int not null default 0, \"worker\" varchar(80) null, \"lease_until\" timestamptz null)");
    this.addSql("create index \"tasks_app_id_index\" on \"search\".\"tasks\" (\"app_id\")");
    this.addSql("create index \"tasks_status_id_index\" on \"search\".\"tasks\" (\"status\", \"id\")");
    this.addSql("create index \"tasks_index_id_id_index\" on \"search\".\"tasks\" (\"index_id\", \"id\")");
    this.addSql("create index \"tasks_app_id_environment_id_index\" on \"search\".\"tasks\" (\"app_id\", \"environment\", \"id\")");
    this.addSql("create table \"search\".\"task_payloads\" (\"task_id\" bigint not null, \"body\" text not null, primary key (\"task_id\"))");
    this.addSql("create table \"search\".\"webhook_attempts\" (\"id\" bigserial primary key, \"delivery_id\" varchar(32) not null, \"attempt\" int not null, \"status_code\" int null, \"error\" text null, \"duration_ms\" int not null, \"created_at\" timestamptz not null)");
    this.addSql("create index \"webhook_attempts_delivery_id_index\" on \"search\".\"webhook_attempts\" (\"delivery_id\")");
    this.addSql("create table \"search\".\"webhook_deliveries\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"webhook_id\" varchar(32) not null, \"event\" varchar(40) not null, \"body\" text not null, \"status\" text not null default 'pending', \"attempts\" int not null default 0, \"next_attempt_at\" timestamptz not null, \"lease_until\" timestamptz null, \"last_status_code\" int null, \"last_error\" text null, \"created_at\" timestamptz not null, \"delivered_at\" timestamptz null, primary key (\"id\"))");
    this.addSql("create index \"webhook_deliveries_app_id_index\" on \"search\".\"webhook_deliveries\" (\"app_id\")");
    this.addSql("create index \"webhook_deliveries_webhook_id_created_at_index\" on \"search\".\"webhook_deliveries\" (\"webhook_id\", \"created_at\")");
    this.addSql("create index \"webhook_deliveries_status_next_attempt_at_index\" on \"search\".\"webhook_deliveries\" (\"status\", \"next_attempt_at\")");
    this.addSql("create table \"search\".\"webhooks\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"url\" text not null, \"events\" jsonb not null, \"secret\" text not null, \"active\" boolean not null default true, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"webhooks_app_id_index\" on \"search\".\"webhooks\" (\"app_id\")");
    this.addSql("create index \"webhooks_app_id_environment_created_at_index\" on \"search\".\"webhooks\" (\"app_id\", \"environment\", \"created_at\")");
    this.addSql("alter table \"search\".\"indexes\" add \"suggestion_settings\" jsonb null, add \"applied_task_id\" bigint not null default '0', add \"purged_through_task_id\" bigint not null default '0'");
    this.addSql("alter table \"search\".\"tasks\" add constraint \"tasks_type_check\" check (\"type\" in ('index_creation', 'index_deletion', 'settings_update', 'document_addition_or_update', 'document_deletion', 'document_deletion_by_filter'))");
    this.addSql("alter table \"search\".\"tasks\" add constraint \"tasks_status_check\" check (\"status\" in ('enqueued', 'processing', 'succeeded', 'failed', 'canceled'))");
    this.addSql("alter table \"search\".\"webhook_deliveries\" add constraint \"webhook_deliveries_status_check\" check (\"status\" in ('pending', 'delivering', 'delivered', 'failed'))");
  }
}
