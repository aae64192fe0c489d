// Search's webhooks move onto lib/webhooks: `webhooks` becomes `webhook_endpoints` with an owner
// key and the secret sealed with MASTER_KEY (existing plaintext secrets are sealed here, then the
// plaintext column is dropped); deliveries gain the lib columns. Rows keep their ids, so delivery
// logs and X-Webhook-Id values stay what receivers saw.
import { Migration } from '@mikro-orm/migrations';
import { loadConfig } from '../../../lib/config.js';
import { masterSecretBox } from '../../../lib/crypto.js';
import { endpointSecretAad } from '../../../lib/webhooks/webhook.entities.js';
import { loadSearchConfig } from '../config.js';

export class Migration20261124083000_lib_webhooks extends Migration {
  override async up(): Promise<void> {
    const x = (sql: string, params?: unknown[]) => this.execute(sql, params);
    await x('alter table "search"."webhooks" rename to "webhook_endpoints"');
    await x('alter table "search"."webhook_endpoints" rename constraint "webhooks_pkey" to "webhook_endpoints_pkey"');
    await x('drop index "search"."webhooks_app_id_index"');
    await x('drop index "search"."webhooks_app_id_environment_created_at_index"');
    await x('alter table "search"."webhook_endpoints" add column "owner" varchar(160) null, add column "secret_sealed" text null');
    await x(`update "search"."webhook_endpoints" set "owner" = 'app:' || "app_id" || ':' || "environment"`);
    const plain = (await x('select "id", "secret" from "search"."webhook_endpoints"')) as { id: string; secret: string }[];
    if (plain.length) {
      const box = masterSecretBox(loadConfig());
      for (const row of plain) await x('update "search"."webhook_endpoints" set "secret_sealed" = ? where "id" = ?', [box.seal(row.secret, endpointSecretAad(row.id)), row.id]);
    }
    await x(
      'alter table "search"."webhook_endpoints" alter column "owner" set not null, alter column "secret_sealed" set not null, drop column "app_id", drop column "environment", drop column "secret"',
    );
    await x('create index "webhook_endpoints_owner_created_at_index" on "search"."webhook_endpoints" ("owner", "created_at")');

    await x('drop index "search"."webhook_deliveries_app_id_index"');
    await x('drop index "search"."webhook_deliveries_webhook_id_created_at_index"');
    await x('alter table "search"."webhook_deliveries" rename column "webhook_id" to "endpoint_id"');
    await x(
      'alter table "search"."webhook_deliveries" add column "owner" varchar(160) null, add column "target" varchar(100) null, add column "event_id" varchar(64) null, ' +
        'add column "display_url" varchar(2048) null, add column "url_sealed" text null, add column "secret_sealed" text null, ' +
        'add column "body_sealed" boolean not null default false, add column "max_attempts" int null, add column "last_attempt_at" timestamptz null',
    );
    await x(`update "search"."webhook_deliveries" set "owner" = 'app:' || "app_id" || ':' || "environment", "event_id" = "id", "max_attempts" = greatest("attempts", ?)`, [
      loadSearchConfig().webhookMaxAttempts,
    ]);
    await x(
      'alter table "search"."webhook_deliveries" alter column "owner" set not null, alter column "event_id" set not null, alter column "max_attempts" set not null, ' +
        'alter column "endpoint_id" drop not null, alter column "event" type varchar(64), drop column "app_id", drop column "environment"',
    );
    await x('create index "webhook_deliveries_owner_created_at_index" on "search"."webhook_deliveries" ("owner", "created_at")');
    await x('create index "webhook_deliveries_endpoint_id_created_at_index" on "search"."webhook_deliveries" ("endpoint_id", "created_at")');
  }
}
