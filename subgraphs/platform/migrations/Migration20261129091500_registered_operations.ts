// An app's registry of trusted operations and its "registered operations only" setting
// (subgraphs/platform/operations/).
import { Migration } from '@mikro-orm/migrations';

export class Migration20261129091500_registered_operations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "platform"."registered_operations" (
      "id" varchar(32) not null, "app_id" varchar(32) not null, "platform_id" varchar(32) not null,
      "operation_id" varchar(140) not null, "name" varchar(200) null, "type" text check ("type" in ('query', 'mutation', 'subscription')) not null,
      "body" text not null, "created_at" timestamptz not null,
      constraint "registered_operations_pkey" primary key ("id"))`);
    this.addSql('create index "registered_operations_platform_id_index" on "platform"."registered_operations" ("platform_id")');
    this.addSql('alter table "platform"."registered_operations" add constraint "registered_operations_app_id_operation_id_unique" unique ("app_id", "operation_id")');
    this.addSql('alter table "platform"."registered_operations" add constraint "registered_operations_app_id_foreign" foreign key ("app_id") references "platform"."apps" ("id") on update cascade');
    this.addSql('alter table "platform"."registered_operations" add constraint "registered_operations_platform_id_foreign" foreign key ("platform_id") references "platform"."platforms" ("id") on update cascade');
    this.addSql(`create table "platform"."registered_operation_policies" (
      "app_id" varchar(32) not null, "platform_id" varchar(32) not null, "app_only" boolean not null default false,
      "key_ids" text[] not null default '{}', "updated_at" timestamptz not null,
      constraint "registered_operation_policies_pkey" primary key ("app_id"))`);
    this.addSql('create index "registered_operation_policies_platform_id_index" on "platform"."registered_operation_policies" ("platform_id")');
    this.addSql('alter table "platform"."registered_operation_policies" add constraint "registered_operation_policies_app_id_foreign" foreign key ("app_id") references "platform"."apps" ("id") on update cascade');
    this.addSql('alter table "platform"."registered_operation_policies" add constraint "registered_operation_policies_platform_id_foreign" foreign key ("platform_id") references "platform"."platforms" ("id") on update cascade');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "platform"."registered_operation_policies"');
    this.addSql('drop table if exists "platform"."registered_operations"');
  }
}
