// The platform's webhook deliveries move onto lib/webhooks: `webhook_deliveries` takes the lib
// shape (owner = account id, target label, the body as sent, signing secret sealed per delivery)
// and `webhook_endpoints` and `webhook_attempts` are created. Deliveries still to be sent get
// their body and sealed secret here, as the sender needs them; finished ones keep a body without
// secret fields (history only, never sent again).
import { Migration } from '@mikro-orm/migrations';
import { loadConfig } from '../../../lib/config.js';
import { masterSecretBox, type SecretBox } from '../../../lib/crypto.js';
import { deliveryBodyAad, deliverySecretAad } from '../../../lib/webhooks/webhook.entities.js';

const T = '"platform"."webhook_deliveries"';

export class Migration20261124083100_lib_webhooks extends Migration {
  override async up(): Promise<void> {
    const x = (sql: string, params?: unknown[]) => this.execute(sql, params);
    for (const c of ['platform_id_foreign', 'account_id_foreign', 'event_id_foreign', 'app_id_foreign', 'target_kind_check']) {
      await x(`alter table ${T} drop constraint "webhook_deliveries_${c}"`);
    }
    await x('drop index "platform"."webhook_deliveries_account_id_created_at_index"');
    await x(
      `alter table ${T} add column "owner" varchar(160) null, add column "endpoint_id" varchar(32) null, add column "target" varchar(100) null, ` +
        'add column "event" varchar(64) null, add column "display_url" varchar(2048) null, add column "secret_sealed" text null, add column "body" text null, ' +
        'add column "body_sealed" boolean not null default false, add column "lease_until" timestamptz null',
    );
    await x(
      `update ${T} d set "owner" = d."account_id", "display_url" = d."url", "lease_until" = d."locked_until", "event" = ev."event",
              "target" = case when d."target_kind" = 'app' then 'app:' || d."app_id" else 'team_chat' end,
              "body" = case when d."target_kind" = 'team_chat' then jsonb_build_object('text', ev."summary")::text
                            else (jsonb_build_object('id', ev."payload"->'id', 'event', ev."payload"->'event', 'occurred_at', ev."payload"->'occurredAt',
                                    'platform_id', ev."payload"->'platformId', 'account_id', ev."payload"->'accountId', 'data', ev."payload"->'data')
                                  || case when ev."payload"->'subject' is null then '{}'::jsonb else jsonb_build_object('subject', ev."payload"->'subject') end)::text end
         from "platform"."account_events" ev where ev."id" = d."event_id"`,
    );
    const open = (await x(
      `select d."id", d."app_id", d."body", ev."id" as "event_id", ev."secret_sealed" as "event_secret", s."secret_sealed" as "app_secret"
         from ${T} d join "platform"."account_events" ev on ev."id" = d."event_id"
         left join "platform"."app_webhook_secrets" s on s."app_id" = d."app_id"
        where d."target_kind" = 'app' and d."status" in ('pending', 'delivering')`,
    )) as { id: string; app_id: string; body: string; event_id: string; event_secret: string | null; app_secret: string | null }[];
    let box: SecretBox | undefined;
    for (const d of open) {
      if (!d.app_secret) {
        await x(`update ${T} set "status" = 'failed', "last_error" = 'the app has no webhook secret' where "id" = ?`, [d.id]);
        continue;
      }
      box ??= masterSecretBox(loadConfig());
      const secret = box.open(d.app_secret, `app-webhook-secret:${d.app_id}`);
      let body = d.body;
      if (d.event_secret) {
        const wire = JSON.parse(body) as { data: Record<string, unknown> };
        wire.data = { ...wire.data, ...(JSON.parse(box.open(d.event_secret, `account-event:${d.event_id}:secret-data`)) as Record<string, unknown>) };
        body = box.seal(JSON.stringify(wire), deliveryBodyAad(d.id));
      }
      await x(`update ${T} set "secret_sealed" = ?, "body" = ?, "body_sealed" = ? where "id" = ?`, [box.seal(secret, deliverySecretAad(d.id)), body, !!d.event_secret, d.id]);
    }
    await x(
      `alter table ${T} alter column "owner" set not null, alter column "event" set not null, alter column "body" set not null, ` +
        'alter column "url_sealed" drop not null, alter column "event_id" type varchar(64), ' +
        'drop column "platform_id", drop column "account_id", drop column "target_kind", drop column "app_id", drop column "url", drop column "locked_until"',
    );
    await x(`create index "webhook_deliveries_owner_created_at_index" on ${T} ("owner", "created_at")`);
    await x(`create index "webhook_deliveries_endpoint_id_created_at_index" on ${T} ("endpoint_id", "created_at")`);
    await x(
      'create table "platform"."webhook_attempts" ("id" bigserial primary key, "delivery_id" varchar(32) not null, "attempt" int not null, "status_code" int null, "error" text null, "duration_ms" int not null, "created_at" timestamptz not null)',
    );
    await x('create index "webhook_attempts_delivery_id_index" on "platform"."webhook_attempts" ("delivery_id")');
    await x(
      'create table "platform"."webhook_endpoints" ("id" varchar(32) not null, "owner" varchar(160) not null, "url" text not null, "events" jsonb not null, "secret_sealed" text not null, "active" boolean not null default true, "created_at" timestamptz not null, primary key ("id"))',
    );
    await x('create index "webhook_endpoints_owner_created_at_index" on "platform"."webhook_endpoints" ("owner", "created_at")');
  }
}
