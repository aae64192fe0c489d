// Platform operators (docs/security.md): who may operate which platform with a JWT. Every existing
// platform gets no operator here: until one is added, only super-admin tokens (and tokens whose
// `platform` claim names it) reach it.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261124160000_platform_operators extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"platform\".\"platform_operators\" (\"id\" varchar(32) not null, \"platform_id\" varchar(32) not null, \"user_id\" varchar(200) not null, \"scopes\" jsonb not null, \"role\" text not null default 'operator', \"added_by\" varchar(200) null, \"created_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("alter table \"platform\".\"platform_operators\" add constraint \"platform_operators_platform_id_user_id_unique\" unique (\"platform_id\", \"user_id\")");
    this.addSql("create index \"platform_operators_user_id_index\" on \"platform\".\"platform_operators\" (\"user_id\")");
    this.addSql("alter table \"platform\".\"platform_operators\" add constraint \"platform_operators_platform_id_foreign\" foreign key (\"platform_id\") references \"platform\".\"platforms\" (\"id\") on delete cascade");
    this.addSql("alter table \"platform\".\"platform_operators\" add constraint \"platform_operators_role_check\" check (\"role\" in ('owner', 'operator'))");
  }
}
