import { Migration } from '@mikro-orm/migrations';

export class Migration20261122090119_init extends Migration {
  override async up(): Promise<void> {
    this.addSql("create schema if not exists \"platform\"");
    this.addSql("create table \"platform\".\"platforms\" (\"id\" varchar(32) not null, \"url_id\" varchar(64) not null, \"code\" varchar(64) not null, \"name\" varchar(200) not null, \"description\" text null, \"email\" varchar(320) null, \"website\" varchar(2048) null, \"status\" text not null default 'active', \"enabled\" boolean not null default true, \"schema_name\" varchar(80) not null, \"settings\" jsonb not null, \"metadata\" jsonb not null, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("alter table \"platform\".\"platforms\" add constraint \"platforms_url_id_unique\" unique (\"url_id\")");
    this.addSql("alter table \"platform\".\"platforms\" add constraint \"platforms_code_unique\" unique (\"code\")");
    this.addSql("create table \"platform\".\"accounts\" (\"id\" varchar(32) not null, \"platform_id\" varchar(32) not null, \"name\" varchar(200) not null, \"code\" varchar(64) not null, \"url_id\" varchar(64) not null, \"status\" text not null default 'active', \"preferred_domain\" varchar(253) null, \"preferred_language\" varchar(35) null, \"deployment_model\" text not null default 'shared_cloud', \"deleted_at\" timestamptz null, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"accounts_platform_id_created_at_index\" on \"platform\".\"accounts\" (\"platform_id\", \"created_at\")");
    this.addSql("alter table \"platform\".\"accounts\" add constraint \"accounts_platform_id_url_id_unique\" unique (\"platform_id\", \"url_id\")");
    this.addSql("alter table \"platform\".\"accounts\" add constraint \"accounts_platform_id_code_unique\" unique (\"platform_id\", \"code\")");
    this.addSql("create table \"platform\".\"apps\" (\"id\" varchar(32) not null, \"account_id\" varchar(32) not null, \"platform_id\" varchar(32) not null, \"name\" varchar(200) not null, \"description\" text null, \"app_type\" text not null default 'web', \"purpose\" text not null default 'production', \"status\" text not null default 'active', \"oauth_enabled\" boolean not null default false, \"rate_limit_per_minute\" int not null default 1000, \"webhook_url\" varchar(2048) null, \"allowed_origins\" text[] not null, \"preferred_domain\" varchar(253) null, \"domain_verified\" boolean not null default false, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"apps_platform_id_index\" on \"platform\".\"apps\" (\"platform_id\")");
    this.addSql("create index \"apps_account_id_created_at_index\" on \"platform\".\"apps\" (\"account_id\", \"created_at\")");
    this.addSql("create table \"platform\".\"api_keys\" (\"id\" varchar(32) not null, \"app_id\" varchar(32) not null, \"platform_id\" varchar(32) not null, \"name\" varchar(200) not null, \"key_type\" text not null, \"environment\" text not null default 'live', \"scopes\" text[] not null, \"rate_limit_per_minute\" int null, \"allowed_ips\" text[] not null, \"allowed_origins\" text[] not null, \"expires_at\" timestamptz null, \"usage_count\" bigint not null default '0', \"key_hash\" varchar(64) not null, \"key_prefix\" varchar(16) not null, \"last_four\" varchar(4) not null, \"revoked_at\" timestamptz null, \"created_at\" timestamptz not null, \"last_used_at\" timestamptz null, primary key (\"id\"))");
    this.addSql("create index \"api_keys_platform_id_index\" on \"platform\".\"api_keys\" (\"platform_id\")");
    this.addSql("alter table \"platform\".\"api_keys\" add constraint \"api_keys_key_hash_unique\" unique (\"key_hash\")");
    this.addSql("create index \"api_keys_app_id_created_at_index\" on \"platform\".\"api_keys\" (\"app_id\", \"created_at\")");
    this.addSql("alter table \"platform\".\"platforms\" add constraint \"platforms_status_check\" check (\"status\" in ('active', 'inactive', 'suspended'))");
    this.addSql("alter table \"platform\".\"accounts\" add constraint \"accounts_platform_id_foreign\" foreign key (\"platform_id\") references \"platform\".\"platforms\" (\"id\")");
    this.addSql("alter table \"platform\".\"accounts\" add constraint \"accounts_status_check\" check (\"status\" in ('active', 'suspended', 'closed'))");
    this.addSql("alter table \"platform\".\"accounts\" add constraint \"accounts_deployment_model_check\" check (\"deployment_model\" in ('shared_cloud', 'dedicated_cloud', 'self_hosted', 'partner_cloud'))");
    this.addSql("alter table \"platform\".\"apps\" add constraint \"apps_account_id_foreign\" foreign key (\"account_id\") references \"platform\".\"accounts\" (\"id\")");
    this.addSql("alter table \"platform\".\"apps\" add constraint \"apps_platform_id_foreign\" foreign key (\"platform_id\") references \"platform\".\"platforms\" (\"id\")");
    this.addSql("alter table \"platform\".\"apps\" add constraint \"apps_app_type_check\" check (\"app_type\" in ('web', 'mobile', 'backend', 'desktop', 'iot'))");
    this.addSql("alter table \"platform\".\"apps\" add constraint \"apps_purpose_check\" check (\"purpose\" in ('production', 'development', 'internal', 'demo'))");
    this.addSql("alter table \"platform\".\"apps\" add constraint \"apps_status_check\" check (\"status\" in ('active', 'suspended', 'archived'))");
    this.addSql("alter table \"platform\".\"api_keys\" add constraint \"api_keys_app_id_foreign\" foreign key (\"app_id\") references \"platform\".\"apps\" (\"id\")");
    this.addSql("alter table \"platform\".\"api_keys\" add constraint \"api_keys_platform_id_foreign\" foreign key (\"platform_id\") references \"platform\".\"platforms\" (\"id\")");
    this.addSql("alter table \"platform\".\"api_keys\" add constraint \"api_keys_key_type_check\" check (\"key_type\" in ('publishable', 'secret'))");
    this.addSql("alter table \"platform\".\"api_keys\" add constraint \"api_keys_environment_check\" check (\"environment\" in ('test', 'live'))");
  }
}
