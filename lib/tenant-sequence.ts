// Integer ids counted per app partition (app + environment): a tenant's numbers go 1, 2, 3… with
// its own activity only, so an id never tells how much another tenant did (a global sequence would).
// One row per (sequence name, app, environment) in the subgraph's `tenant_sequences` table; the
// next value is taken in one conditional statement (insert or increment), whose row lock is held
// until the transaction ends, so within a tenant the numbers increase in commit order.
// Adding one to a subgraph: list TenantSequenceEntity among its entities, create the table in a
// migration (tenantSequencesDdl), and draw numbers with nextTenantValueSql inside the insert.
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BigIntType } from '@mikro-orm/core';
import { AppScopedEntity } from './tenant-entity.js';

@Entity({ tableName: 'tenant_sequences' })
export class TenantSequenceEntity extends AppScopedEntity {
  /** `<sequence name>:<app>:<environment>` */
  @PrimaryKey({ length: 200 })
  id!: string;

  @Property({ length: 60 })
  name!: string;

  @Property({ type: new BigIntType('number') })
  lastValue!: number;
}

export function tenantSequencesDdl(schema: string): string[] {
  return [
    `create table if not exists "${schema}"."tenant_sequences" ("app_id" varchar(64) not null, "environment" varchar(8) not null, "id" varchar(200) not null, "name" varchar(60) not null, "last_value" bigint not null, constraint "tenant_sequences_pkey" primary key ("id"))`,
    `create index if not exists "tenant_sequences_app_id_index" on "${schema}"."tenant_sequences" ("app_id")`,
  ];
}

/**
 * A statement returning `last_value`, the next number of sequence `name` for (`app`, `env`): the
 * caller places it in a CTE; each of the three is SQL (a literal or a placeholder), used once.
 */
export function nextTenantValueSql(schema: string, p: { name: string; app: string; env: string }): string {
  return `insert into "${schema}"."tenant_sequences" (id, name, app_id, environment, last_value)
          select v.name || ':' || v.app || ':' || v.env, v.name, v.app, v.env, 1
            from (select ${p.name}::text as name, ${p.app}::text as app, ${p.env}::text as env) v
          on conflict (id) do update set last_value = "tenant_sequences".last_value + 1
          returning last_value`;
}

/**
 * A migration's statements giving `table` a per-partition number `column` drawn from sequence
 * `name`: existing rows numbered 1, 2, 3… within their partition in id order, the column made
 * unique per partition, and each partition's counter set after its last number.
 */
export function tenantNumberColumnDdl(schema: string, p: { table: string; column: string; type: 'int' | 'bigint'; name: string }): string[] {
  const table = `"${schema}"."${p.table}"`;
  return [
    ...tenantSequencesDdl(schema),
    `alter table ${table} add column "${p.column}" ${p.type} null`,
    `update ${table} r set "${p.column}" = n.number
       from (select id, row_number() over (partition by app_id, environment order by id) as number from ${table}) n
      where r.id = n.id`,
    `alter table ${table} alter column "${p.column}" set not null`,
    `alter table ${table} add constraint "${p.table}_app_id_environment_${p.column}_unique" unique ("app_id", "environment", "${p.column}")`,
    `insert into "${schema}"."tenant_sequences" (id, name, app_id, environment, last_value)
     select '${p.name}:' || app_id || ':' || environment, '${p.name}', app_id, environment, max("${p.column}") from ${table} group by app_id, environment`,
  ];
}
