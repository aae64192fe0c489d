// The search nodes that place indexes among themselves (placement/): each live node upserts its row
// every heartbeat; a row whose heartbeat is older than SEARCH_NODE_STALE_MS is a dead node.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261129050000_search_nodes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "search"."nodes" ("id" varchar(255) not null primary key, "url" varchar(2048) not null, "started_at" timestamptz not null default now(), "heartbeat_at" timestamptz not null default now())',
    );
    this.addSql('create index "nodes_heartbeat_at_index" on "search"."nodes" ("heartbeat_at")');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "search"."nodes"');
  }
}
