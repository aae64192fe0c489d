// A tenant's pick of the model behind each text task (model-choices/model-choice.entity.ts).
import { Migration } from '@mikro-orm/migrations';

export class Migration20261129120000_model_choices extends Migration {
  override async up(): Promise<void> {
    this.addSql("create table \"ai\".\"model_choices\" (\"id\" varchar(32) not null, \"app_id\" varchar(64) not null, \"environment\" varchar(8) not null, \"task\" varchar(32) not null, \"choice\" varchar(64) not null, \"updated_at\" timestamptz not null, primary key (\"id\"))");
    this.addSql("create index \"model_choices_app_id_index\" on \"ai\".\"model_choices\" (\"app_id\")");
    this.addSql("alter table \"ai\".\"model_choices\" add constraint \"model_choices_app_id_environment_task_unique\" unique (\"app_id\", \"environment\", \"task\")");
  }
}
