// Notification settings and account events delivered to webhooks (document 1): the team-chat URL
// sealed and masked, signed app webhooks (X-Webhook-Signature), retries after a 500 with backoff,
// the event filter, the delivery log, rolling the app signing secret.
import { verifyWebhook } from '../../lib/webhooks/index.js';
import { createTenant, jsonApi, rest, uniq, type Tenant } from '../harness/client.js';
import { sql } from '../harness/db.js';
import { expectServiceError } from '../harness/security.js';
import { startReceiver, type Receiver } from '../harness/webhook-receiver.js';

const P = 'platform';

describe('/settings/notifications and account events to webhooks', () => {
  let hooks: Receiver;
  let chat: Receiver;
  let tenant: Tenant;
  let appSecret: string;
  const chatTries = new Map<string, number>();

  beforeAll(async () => {
    hooks = await startReceiver();
    // team chat answers 500 to the first try of every delivery, 200 to the retry
    chat = await startReceiver((r) => {
      const id = String(r.headers['x-webhook-delivery']);
      chatTries.set(id, (chatTries.get(id) ?? 0) + 1);
      return chatTries.get(id) === 1 ? 500 : 200;
    });
    tenant = await createTenant();
    const app = await rest('POST', `/accounts/${tenant.accountUrlId}/apps`, {
      headers: tenant.platformHeaders,
      body: jsonApi('apps', { name: 'Hooked', webhook_url: `${hooks.url}/hooks/platform` }),
    });
    const s = await rest('POST', `/accounts/${tenant.accountUrlId}/apps/${app.body.data.id}/webhook_secret`, { headers: tenant.platformHeaders });
    expect(s.status).toBe(201);
    appSecret = s.body.data.attributes.secret;
    expect(appSecret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
  });
  afterAll(async () => {
    await hooks.close();
    await chat.close();
  });

  test('defaults before anything is set', async () => {
    const r = await rest('GET', `/accounts/${tenant.accountUrlId}/settings/notifications`, { headers: tenant.platformHeaders });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toEqual({ team_chat_webhook_url: null, events: ['*'], enabled: true, updated_at: null });
  });

  test('PATCH stores the team-chat URL sealed and shows it masked', async () => {
    const url = `${chat.url}/services/T0001/B0002/verysecrettoken42`;
    const r = await rest('PATCH', `/accounts/${tenant.accountUrlId}/settings/notifications`, {
      headers: tenant.platformHeaders,
      body: jsonApi('notification_settings', { team_chat_webhook_url: url, events: ['key.*', 'details.updated'] }),
    });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ events: ['key.*', 'details.updated'], enabled: true });
    expect(r.body.data.attributes.team_chat_webhook_url).toBe(`${chat.url}/…en42`);
    const [row] = await sql(`select * from platform.account_notification_settings where account_id = $1`, [r.body.data.id]);
    expect(JSON.stringify(row)).not.toContain('verysecrettoken');
  });

  test.each([
    [{ events: ['nope.created'] }, 'events'],
    [{ events: ['bogus.*'] }, 'events'],
    [{ events: [] }, 'events'],
    [{ team_chat_webhook_url: 'ftp://chat.example.com/x' }, 'team_chat_webhook_url'],
    [{ team_chat_webhook_url: 'https://no-such-host.invalid/hook' }, 'team_chat_webhook_url'],
  ])('invalid %j → 422 naming %s', async (attributes, parameter) => {
    const r = await rest('PATCH', `/accounts/${tenant.accountUrlId}/settings/notifications`, { headers: tenant.platformHeaders, body: jsonApi('notification_settings', attributes) });
    expectServiceError(r, P, 422, 'VALIDATION_FAILED', { parameter });
  });

  test('key.created reaches the app webhook signed, and team chat after a retry (500, then 200)', async () => {
    const c = await rest('POST', `/accounts/${tenant.accountUrlId}/keys`, {
      headers: tenant.platformHeaders,
      body: jsonApi('credentials', { name: 'Webhook test', provider: 'github', secret: 'ghp_supersecretvalue00000000000000' }),
    });
    expect(c.status).toBe(201);
    const credentialId = c.body.data.id;

    const appHook = await hooks.waitFor((r) => r.json?.data?.credential_id === credentialId);
    expect(appHook.path).toBe('/hooks/platform');
    expect(appHook.headers['x-webhook-event']).toBe('key.created');
    expect(verifyWebhook(appSecret, appHook.body, appHook.headers['x-webhook-signature'] as string)).toMatchObject({ ok: true });
    expect(verifyWebhook('whsec_wrong', appHook.body, appHook.headers['x-webhook-signature'] as string)).toMatchObject({ ok: false });
    expect(appHook.json).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      event: 'key.created',
      account_id: expect.stringMatching(/^acct_/),
      platform_id: expect.stringMatching(/^plat_/),
      data: { credential_id: credentialId, name: 'Webhook test', provider: 'github' },
    });
    expect(appHook.body).not.toContain('ghp_supersecret');

    const retried = await chat.waitFor((r) => r.headers['x-webhook-event'] === 'key.created' && r.headers['x-webhook-attempt'] === '2', 15_000);
    expect(retried.json).toEqual({ text: expect.stringContaining('"Webhook test"') });
    const first = chat.received.find((r) => r.headers['x-webhook-delivery'] === retried.headers['x-webhook-delivery'] && r.headers['x-webhook-attempt'] === '1')!;
    expect(retried.at - first.at).toBeGreaterThanOrEqual(200); // backoff: 300 ms ± 20 %

    // the delivery log shows both targets, the team-chat one delivered on its second attempt
    let deliveries: any[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await rest('GET', `/accounts/${tenant.accountUrlId}/settings/notifications/deliveries?limit=10`, { headers: tenant.platformHeaders });
      deliveries = r.body.data.filter((d: any) => d.attributes.event === 'key.created');
      if (deliveries.length === 2 && deliveries.every((d) => d.attributes.status === 'delivered')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const chatDelivery = deliveries.find((d) => d.attributes.target_kind === 'team_chat');
    expect(chatDelivery.attributes).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200, url: `${chat.url}/…en42` });
    expect(deliveries.find((d) => d.attributes.target_kind === 'app').attributes).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  test('the event filter decides what team chat gets; app webhooks get every event', async () => {
    const x = await rest('POST', `/accounts/${tenant.accountUrlId}/exchange`, {
      headers: tenant.platformHeaders,
      body: jsonApi('exchanges', { name: uniq('filtered'), broker_type: 'nats', url: 'nats://n.example.com:4222' }),
    });
    const hook = await hooks.waitFor((r) => r.json?.data?.exchange_id === x.body.data.id);
    expect(hook.headers['x-webhook-event']).toBe('exchange.created');
    const r = await rest('GET', `/accounts/${tenant.accountUrlId}/settings/notifications/deliveries?status=delivered`, { headers: tenant.platformHeaders });
    const forExchange = r.body.data.filter((d: any) => d.attributes.event === 'exchange.created');
    expect(forExchange.map((d: any) => d.attributes.target_kind)).toEqual(['app']);
  });

  test('deliveries: a bad status filter → 422, a bad limit → 400', async () => {
    expectServiceError(await rest('GET', `/accounts/${tenant.accountUrlId}/settings/notifications/deliveries?status=lost`, { headers: tenant.platformHeaders }), P, 422, 'VALIDATION_FAILED', {
      parameter: 'status',
    });
    expectServiceError(await rest('GET', `/accounts/${tenant.accountUrlId}/settings/notifications/deliveries?limit=0`, { headers: tenant.platformHeaders }), P, 400, 'BAD_REQUEST', {
      parameter: 'limit',
    });
  });

  test('rolling the app secret: later deliveries are signed with the new one', async () => {
    const apps = await rest('GET', `/accounts/${tenant.accountUrlId}/apps`, { headers: tenant.platformHeaders });
    const appId = apps.body.data.find((a: any) => a.attributes.name === 'Hooked').id;
    const rolled = await rest('POST', `/accounts/${tenant.accountUrlId}/apps/${appId}/webhook_secret`, { headers: tenant.platformHeaders });
    const secret = rolled.body.data.attributes.secret;
    expect(secret).not.toBe(appSecret);
    const seen = hooks.received.length;
    const d = await rest('PUT', `/accounts/${tenant.accountUrlId}/details`, { headers: tenant.platformHeaders, body: jsonApi('account_details', { legal_name: uniq('Rolled ') }) });
    expect(d.status).toBe(200);
    const hook = await hooks.waitFor((r) => r.json?.event === 'details.updated' && hooks.received.indexOf(r) >= seen);
    expect(verifyWebhook(secret, hook.body, hook.headers['x-webhook-signature'] as string)).toMatchObject({ ok: true });
    expect(verifyWebhook(appSecret, hook.body, hook.headers['x-webhook-signature'] as string)).toMatchObject({ ok: false, reason: 'mismatch' });
  });
});
