// The platform document (platform.md, extracted to documents/platform.json) as tests through the
// REST bridge: every documented path answers its documented shape, every field of the Platform,
// Account, App and API key tables is accepted, stored and answered with its type, the reporting
// query parameters are accepted, and the documented error body is what an error answers.
import { jsonApi, rest, uniq, type HttpResult } from '../harness/client.js';
import {
  fieldsNotShownSuite,
  fieldSuite,
  loadDocument,
  pathSuite,
  printCoverage,
  queryParamSuite,
  requestAttributeSuite,
  rowSuite,
  type FieldsNotShownPlan,
  type KnownElsewhere,
} from '../harness/contract.js';
import { createSecTenant, expectServiceError, type SecTenant } from '../harness/security.js';
import { startReceiver, type Receiver } from '../harness/webhook-receiver.js';

const doc = loadDocument('platform');

/** Rows known not to hold yet (value: the issue item that fixes it); empty: every documented row holds. */
const KNOWN_FIXED_ELSEWHERE: KnownElsewhere = {};

const tenant = () => createSecTenant();

/** "Its response carries: status (string), service (string), version (string), timestamp (ISO 8601 UTC)" */
function healthShape(res: HttpResult): string[] {
  const b = res.body ?? {};
  const out: string[] = [];
  for (const k of ['status', 'service', 'version', 'timestamp']) if (typeof b[k] !== 'string') out.push(`${k} is not a string: ${JSON.stringify(b[k])}`);
  if (typeof b.timestamp === 'string' && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(b.timestamp)) out.push(`timestamp ${b.timestamp} is not ISO 8601 UTC`);
  return out;
}

/** "Key format: <prefix>_<environment>_<tier>_<random>" with pk|sk, test|live, sh|ent|byok */
function keyFormat(res: HttpResult): string[] {
  const key = res.body?.data?.attributes?.key_id;
  return /^(pk|sk)_(test|live)_(sh|ent|byok)_[A-Za-z0-9]+$/.test(key ?? '') ? [] : [`key_id ${key} is not <pk|sk>_<test|live>_<sh|ent|byok>_<random>`];
}

/** "Response: data with the account attributes including computed capabilities" */
function withCapabilities(res: HttpResult): string[] {
  const c = res.body?.data?.attributes?.capabilities;
  return c && typeof c === 'object' && Object.keys(c).length === 9 ? [] : [`capabilities is not the nine booleans: ${JSON.stringify(c)}`];
}

describe('the platform document', () => {
  test('its rows were extracted (documents/platform.json)', () => {
    expect(doc.endpoints.length).toBeGreaterThan(60);
    expect(doc.fields.length).toBeGreaterThan(40);
  });
  afterAll(() =>
    printCoverage('platform.md', {
      paths: doc.endpoints.length,
      'request attributes': doc.endpoints.reduce((n, r) => n + (r.requestAttrs?.length ?? 0), 0),
      fields: doc.fields.filter((f) => f.kind !== 'query').length,
      'query parameters': doc.fields.filter((f) => f.kind === 'query').length,
      rules: RULES.length,
      'resources with fields not shown': doc.fieldsNotShown.length,
    }),
  );
});

const health = Object.fromEntries(doc.endpoints.filter((r) => r.path.startsWith('/health')).map((r) => [r.id, healthShape]));

/**
 * A data transfer of the tenant's account, and the public flow's credentials: the access code the
 * operator's mailer would send (read from the app webhook), then the access token it verifies to.
 */
async function transfer(t: SecTenant, step: 'created' | 'code' | 'token'): Promise<{ code: string; accessCode?: string; token?: string }> {
  hooks ??= await startReceiver();
  const app = await rest('POST', `/accounts/${t.accountUrlId}/apps`, { headers: t.platformHeaders, body: jsonApi('apps', { name: 'Mailer', webhook_url: `${hooks.url}/mailer` }) });
  await rest('POST', `/accounts/${t.accountUrlId}/apps/${app.body.data.id}/webhook_secret`, { headers: t.platformHeaders });
  const r = await rest('POST', `/accounts/${t.accountUrlId}/data_transfers`, {
    headers: t.platformHeaders,
    body: jsonApi('data_transfers', { title: uniq('Data room '), recipient_email: 'investor@fund.example.com', agreement: 'Keep this confidential.' }),
  });
  const code = r.body.data.attributes.code as string;
  if (step === 'created') return { code };
  const seen = hooks.received.length;
  await rest('POST', `/data_transfers/${code}/request_access`);
  const hook = await hooks.waitFor((h) => h.json?.event === 'data_transfer.access_requested' && h.json.data.transfer_code === code && hooks!.received.indexOf(h) >= seen);
  const accessCode = hook.json.data.access_code as string;
  if (step === 'code') return { code, accessCode };
  const v = await rest('POST', `/data_transfers/${code}/verify_access`, { body: jsonApi('data_transfer_access', { access_code: accessCode }) });
  return { code, accessCode, token: v.body.data.attributes.access_token };
}
let hooks: Receiver | undefined;
afterAll(() => hooks?.close());

const withToken = (extra: Record<string, unknown> = {}) => async (t: SecTenant) => {
  const x = await transfer(t, 'token');
  return { params: { code: x.code }, attributes: { access_token: x.token, ...extra } };
};

pathSuite(
  doc,
  {
    known: KNOWN_FIXED_ELSEWHERE,
    prepare: {
      'GET /data_transfers/:code': async (t) => ({ params: { code: (await transfer(t, 'created')).code } }),
      'POST /data_transfers/:code/request_access': async (t) => ({ params: { code: (await transfer(t, 'created')).code } }),
      'POST /data_transfers/:code/verify_access': async (t) => {
        const x = await transfer(t, 'code');
        return { params: { code: x.code }, attributes: { access_code: x.accessCode } };
      },
      'POST /data_transfers/:code/accept': withToken(),
      'POST /data_transfers/:code/decline': withToken(),
      'POST /data_transfers/:code/events': withToken({ event_type: 'viewed' }),
    },
    extra: {
      ...health,
      'POST /accounts/:url_id/apps/:app_id/api_keys': keyFormat,
      'POST /accounts': withCapabilities,
      'POST /platforms/:pid/accounts': withCapabilities,
    },
  },
  tenant,
);

requestAttributeSuite(
  doc,
  {
    'POST /platforms/:pid/accounts': () => ({ name: 'Contract', code: uniq('a'), deployment_model: 'self_hosted', preferred_domain: `${uniq('d')}.example.test` }),
    'POST /accounts/:url_id/apps': () => ({ name: 'Contract', description: 'documented payload', app_type: 'mobile', purpose: 'development' }),
    'POST /accounts/:url_id/apps/:app_id/api_keys': () => ({ name: 'Contract', key_type: 'publishable', environment: 'test', scopes: ['products:read'] }),
    'POST /accounts/:url_id/apps/:app_id/blocks': () => ({ block_unique_id: 'blk_crm' }),
  },
  { known: KNOWN_FIXED_ELSEWHERE },
  tenant,
);

const inList = (id: string) => (res: HttpResult) => {
  const hit = (res.body?.data ?? []).find((d: any) => d.id === id);
  return hit ? { id: hit.id, type: hit.type, ...hit.attributes } : undefined;
};

fieldSuite(
  doc,
  {
    platform: {
      values: () => ({ code: uniq('p'), name: 'Contract platform', description: 'every documented field', email: 'ops@example.com', website: 'https://example.com', status: 'active', enabled: true, settings: { theme: 'dark' }, metadata: { tier: 'gold' } }),
      create: (t, v) => rest('POST', '/platforms', { body: jsonApi('platforms', v), headers: t.platformHeaders }),
      read: (t, created, v) => rest('GET', `/platforms/${created.body.data.id}`, { headers: { ...t.platformHeaders, 'x-platform': v.code as string } }),
    },
    account: {
      values: () => ({ name: 'Contract account', code: uniq('a'), status: 'active', preferred_domain: `${uniq('d')}.example.test`, preferred_language: 'pt-BR', deployment_model: 'self_hosted' }),
      create: (t, v) => rest('POST', '/accounts', { body: jsonApi('accounts', v), headers: t.platformHeaders }),
      read: (t, created) => rest('GET', `/accounts/${created.body.data.attributes.url_id}`, { headers: t.platformHeaders }),
    },
    app: {
      values: () => ({
        name: 'Contract app',
        description: 'every documented field',
        app_type: 'mobile',
        purpose: 'development',
        status: 'active',
        oauth_enabled: true,
        rate_limit_per_minute: 500,
        webhook_url: 'https://hooks.example.com/contract',
        allowed_origins: ['https://app.example.com'],
        preferred_domain: `${uniq('d')}.example.test`,
      }),
      create: (t, v) => rest('POST', `/accounts/${t.accountUrlId}/apps`, { body: jsonApi('apps', v), headers: t.platformHeaders }),
      read: (t) => rest('GET', `/accounts/${t.accountUrlId}/apps`, { headers: t.platformHeaders }),
      fields: (read, created) => inList(created.body.data.id)(read),
    },
    api_key: {
      values: () => ({
        name: 'Contract key',
        key_type: 'secret',
        environment: 'test',
        scopes: ['products:read', 'search:read'],
        rate_limit_per_minute: 100,
        allowed_ips: ['10.0.0.0/8'],
        allowed_origins: ['https://shop.example.com'],
        expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      }),
      create: (t, v) => rest('POST', `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys`, { body: jsonApi('api_keys', v), headers: t.platformHeaders }),
      read: (t) => rest('GET', `/accounts/${t.accountUrlId}/apps/${t.appId}/api_keys`, { headers: t.platformHeaders }),
      fields: (read, created) => inList(created.body.data.id)(read),
    },
  },
  KNOWN_FIXED_ELSEWHERE,
  tenant,
);

const reporting = (t: SecTenant) => t.platformHeaders;
queryParamSuite(
  doc,
  {
    'query.reporting_scope_platform_admin.period': { path: '/reporting/revenue', query: () => 'period=30d' },
    'query.reporting_scope_platform_admin.platform': { path: '/reporting/revenue', query: (t) => `platform=${t.platformCode}` },
    'query.reporting_scope_platform_admin.force_refresh': { path: '/reporting/dashboard', query: () => 'force_refresh=true' },
  },
  KNOWN_FIXED_ELSEWHERE,
  tenant,
  reporting,
);

/** Rules the document writes in prose, each a row. */
const RULES: { id: string; check: () => Promise<string[]> }[] = [
  {
    // "Error body shape: error (string), message (string), status (integer HTTP status, example 422)"
    id: 'rule.error-body',
    check: async () => {
      const t = await tenant();
      const r = await rest('POST', '/accounts', { body: jsonApi('accounts', { name: 'No code' }), headers: t.platformHeaders });
      expectServiceError(r, 'platform', 422, 'VALIDATION_FAILED');
      return [];
    },
  },
  {
    // "Reporting period is limited to the four listed values"
    id: 'rule.reporting-period',
    check: async () => {
      const t = await tenant();
      const r = await rest('GET', '/reporting/revenue?period=1y', { headers: t.platformHeaders });
      expectServiceError(r, 'platform', r.status === 400 ? 400 : 422, ['VALIDATION_FAILED', 'BAD_REQUEST', 'INVALID_PARAMETER'], { parameter: 'period' });
      return [];
    },
  },
  {
    // "GET /users/:user_id/accounts: accounts a user belongs to" / "list the apps and accounts a user can reach"
    id: 'rule.users-accounts-via-app-grant',
    check: async () => {
      const t = await tenant();
      const user = uniq('user_');
      const g = await rest('POST', '/user_accesses', { body: jsonApi('user_accesses', { user_id: user, app_id: t.appId }), headers: t.platformHeaders });
      if (g.status !== 201) return [`grant on the app: ${g.status} ${JSON.stringify(g.body)}`];
      const r = await rest('GET', `/users/${user}/accounts`, { headers: t.platformHeaders });
      const ids = (r.body?.data ?? []).map((d: any) => [d.id, d.attributes?.url_id]).flat();
      return ids.includes(t.accountUrlId) ? [] : [`the account of an app the user was granted is not listed: ${JSON.stringify(r.body).slice(0, 300)}`];
    },
  },
  {
    // "Deleting through /accounts/:url_id is a soft delete"
    id: 'rule.account-soft-delete',
    check: async () => {
      const t = await tenant();
      const a = await rest('POST', '/accounts', { body: jsonApi('accounts', { name: 'Soft', code: uniq('a') }), headers: t.platformHeaders });
      const urlId = a.body.data.attributes.url_id;
      const d = await rest('DELETE', `/accounts/${urlId}`, { headers: t.platformHeaders });
      const back = await rest('POST', `/accounts/${urlId}/restore`, { headers: t.platformHeaders });
      return d.status === 200 && back.status === 200 ? [] : [`delete ${d.status}, restore ${back.status}: ${JSON.stringify(back.body).slice(0, 300)}`];
    },
  },
];

rowSuite('rules of platform', RULES, KNOWN_FIXED_ELSEWHERE, async (r) => r.check());

/**
 * "Fields of subscription, block license, user access, data transfer, account details, account
 * credentials, message-broker configuration, storage and notification-settings records: not shown":
 * attributes beyond the listed ones are kept as given on each record the product writes.
 */
const send = (t: SecTenant, method: string, path: string, type: string, attributes: Record<string, unknown>) => rest(method, path, { body: jsonApi(type, attributes), headers: t.platformHeaders });
const readAttributes = async (t: SecTenant, path: string, id?: string): Promise<Record<string, unknown> | undefined> => {
  const r = await rest('GET', path, { headers: t.platformHeaders });
  const data = Array.isArray(r.body?.data) ? r.body.data.find((d: any) => d.id === id) : r.body?.data;
  return data?.attributes;
};
const acct = (t: SecTenant) => `/accounts/${t.accountUrlId}`;

const FIELDS_NOT_SHOWN: Record<string, FieldsNotShownPlan> = {
  subscription: {
    keeps: {
      write: (t, x) => send(t, 'POST', `${acct(t)}/subscriptions`, 'subscriptions', { model_code: 'starter', trial: false, ...x }),
      read: (t, w) => readAttributes(t, `${acct(t)}/subscriptions/${w.body.data.id}`),
    },
  },
  block_license: {
    keeps: {
      write: (t, x) => send(t, 'POST', `${acct(t)}/blocks`, 'block_licenses', { block_unique_id: 'blk_crm', ...x }),
      read: (t, w) => readAttributes(t, `${acct(t)}/blocks`, w.body.data.id),
    },
  },
  user_access: {
    keeps: {
      write: (t, x) => send(t, 'POST', '/user_accesses', 'user_accesses', { user_id: uniq('user_'), account_id: t.accountUrlId, ...x }),
      read: (t, w) => readAttributes(t, `/users/${w.body.data.attributes.user_id}/accesses`, w.body.data.id),
    },
  },
  data_transfer: {
    keeps: {
      write: (t, x) => send(t, 'POST', `${acct(t)}/data_transfers`, 'data_transfers', { title: uniq('Room '), recipient_email: 'investor@fund.example.com', agreement: 'Keep it confidential.', ...x }),
      read: (t, w) => readAttributes(t, `${acct(t)}/data_transfers/${w.body.data.attributes.code}`),
    },
  },
  account_details: {
    keeps: {
      write: (t, x) => send(t, 'PUT', `${acct(t)}/details`, 'account_details', { legal_name: 'Contract GmbH', ...x }),
      read: (t) => readAttributes(t, `${acct(t)}/details`),
    },
  },
  account_credentials: {
    keeps: {
      write: (t, x) => send(t, 'POST', `${acct(t)}/keys`, 'credentials', { name: uniq('stripe '), provider: 'stripe', secret: 'sk_live_contract_1234', ...x }),
      read: (t, w) => readAttributes(t, `${acct(t)}/keys/${w.body.data.id}`),
    },
  },
  message_broker_configuration: {
    keeps: {
      write: (t, x) => send(t, 'POST', `${acct(t)}/exchange`, 'exchanges', { name: uniq('bus '), broker_type: 'rabbitmq', url: 'amqp://broker.example.com:5672/', ...x }),
      read: (t, w) => readAttributes(t, `${acct(t)}/exchange/${w.body.data.id}`),
    },
  },
  // provisioning takes no body: the store's record is what the product sets (backend, location)
  storage: { noBody: { method: 'POST', path: '/accounts/:url_id/storage' } },
  notification_settings: {
    keeps: {
      write: (t, x) => send(t, 'PATCH', `${acct(t)}/settings/notifications`, 'notification_settings', { enabled: true, ...x }),
      read: (t) => readAttributes(t, `${acct(t)}/settings/notifications`),
    },
  },
};

fieldsNotShownSuite(doc, FIELDS_NOT_SHOWN, KNOWN_FIXED_ELSEWHERE, tenant);
