import { Migration } from '@mikro-orm/migrations';

export class Migration20261122091810_blocks_and_user_access extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"platform\".\"blocks\" (\"id\" varchar(32) not null, \"code\" varchar(64) not null, \"name\" varchar(200) not null, \"description\" text null, \"position\" int not null default 0, \"created_at\" timestamptz not null default now(), primary key (\"id\"))");
    this.addSql("alter table \"platform\".\"blocks\" add constraint \"blocks_code_unique\" unique (\"code\")");
    this.addSql("create table \"platform\".\"block_licenses\" (\"id\" varchar(32) not null, \"platform_id\" varchar(32) not null, \"account_id\" varchar(32) not null, \"block_id\" varchar(32) not null, \"licensed_by\" varchar(200) null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"block_licenses_platform_id_index\" on \"platform\".\"block_licenses\" (\"platform_id\")");
    this.addSql("alter table \"platform\".\"block_licenses\" add constraint \"block_licenses_account_id_block_id_unique\" unique (\"account_id\", \"block_id\")");
    this.addSql("create table \"platform\".\"block_instances\" (\"id\" varchar(32) not null, \"platform_id\" varchar(32) not null, \"account_id\" varchar(32) not null, \"app_id\" varchar(32) not null, \"block_id\" varchar(32) not null, \"license_id\" varchar(32) not null, \"provisioned_by\" varchar(200) null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"block_instances_platform_id_index\" on \"platform\".\"block_instances\" (\"platform_id\")");
    this.addSql("create index \"block_instances_license_id_index\" on \"platform\".\"block_instances\" (\"license_id\")");
    this.addSql("alter table \"platform\".\"block_instances\" add constraint \"block_instances_app_id_block_id_unique\" unique (\"app_id\", \"block_id\")");
    this.addSql("create table \"platform\".\"user_accesses\" (\"id\" varchar(32) not null, \"platform_id\" varchar(32) not null, \"user_id\" varchar(200) not null, \"target_type\" text not null, \"target_id\" varchar(32) not null, \"account_id\" varchar(32) not null, \"app_id\" varchar(32) null, \"role\" text not null, \"status\" text not null default 'active', \"granted_by\" varchar(200) null, \"suspended_at\" timestamptz null, \"revoked_at\" timestamptz null, \"created_at\" timestamptz not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"user_accesses_account_id_index\" on \"platform\".\"user_accesses\" (\"account_id\")");
    this.addSql("create index \"user_accesses_app_id_index\" on \"platform\".\"user_accesses\" (\"app_id\")");
    this.addSql("create index \"user_accesses_platform_id_user_id_created_at_index\" on \"platform\".\"user_accesses\" (\"platform_id\", \"user_id\", \"created_at\")");
    this.addSql("create unique index \"user_accesses_live_target_unique\" on \"platform\".\"user_accesses\" (\"user_id\", \"target_id\") where status <> 'revoked'");
    this.addSql("alter table \"platform\".\"block_licenses\" add constraint \"block_licenses_platform_id_foreign\" foreign key (\"platform_id\") references \"platform\".\"platforms\" (\"id\") on delete cascade");
    this.addSql("alter table \"platform\".\"block_licenses\" add constraint \"block_licenses_account_id_foreign\" foreign key (\"account_id\") references \"platform\".\"accounts\" (\"id\") on delete cascade");
    this.addSql("alter table \"platform\".\"block_licenses\" add constraint \"block_licenses_block_id_foreign\" foreign key (\"block_id\") references \"platform\".\"blocks\" (\"id\")");
    this.addSql("alter table \"platform\".\"block_instances\" add constraint \"block_instances_platform_id_foreign\" foreign key (\"platform_id\") references \"platform\".\"platforms\" (\"id\") on delete cascade");
    this.addSql("alter table \"platform\".\"block_instances\" add constraint \"block_instances_account_id_foreign\" foreign key (\"account_id\") references \"platform\".\"accounts\" (\"id\") on delete cascade");
    this.addSql("alter table \"platform\".\"block_instances\" add constraint \"block_instances_app_id_foreign\" foreign key (\"app_id\") references \"platform\".\"apps\" (\"id\") on delete cascade");
    this.addSql("alter table \"platform\".\"block_instances\" add constraint \"block_instances_block_id_foreign\" foreign key (\"block_id\") references \"platform\".\"blocks\" (\"id\")");
    this.addSql("alter table \"platform\".\"block_instances\" add constraint \"block_instances_license_id_foreign\" foreign key (\"license_id\") references \"platform\".\"block_licenses\" (\"id\")");
    this.addSql("alter table \"platform\".\"user_accesses\" add constraint \"user_accesses_platform_id_foreign\" foreign key (\"platform_id\") references \"platform\".\"platforms\" (\"id\") on delete cascade");
    this.addSql("alter table \"platform\".\"user_accesses\" add constraint \"user_accesses_account_id_foreign\" foreign key (\"account_id\") references \"platform\".\"accounts\" (\"id\") on delete cascade");
    this.addSql("alter table \"platform\".\"user_accesses\" add constraint \"user_accesses_app_id_foreign\" foreign key (\"app_id\") references \"platform\".\"apps\" (\"id\") on delete cascade");
    this.addSql("alter table \"platform\".\"user_accesses\" add constraint \"user_accesses_target_type_check\" check (\"target_type\" in ('account', 'app'))");
    this.addSql("alter table \"platform\".\"user_accesses\" add constraint \"user_accesses_role_check\" check (\"role\" in ('owner', 'admin', 'member', 'viewer'))");
    this.addSql("alter table \"platform\".\"user_accesses\" add constraint \"user_accesses_status_check\" check (\"status\" in ('active', 'suspended', 'revoked'))");
  }
}
