// Data transfers (document 1): an admin creates one, the recipient goes through the public flow
// with no JWT (details → request access → verify → accept/decline → events), every step lands in
// the append-only audit trail. The access code reaches the recipient's side as the signed
// data_transfer.access_requested event on the account's app webhooks (there is no mail here).
import { createTenant, gql, jsonApi, mintToken, rest, uniq, type Tenant } from '../harness/client.js';
import { sql } from '../harness/db.js';
import { expectServiceError } from '../harness/security.js';
import { startReceiver, type Receiver } from '../harness/webhook-receiver.js';

const P = 'platform';
let t: Tenant;
let hooks: Receiver;

beforeAll(async () => {
  hooks = await startReceiver();
  t = await createTenant();
  const app = await rest('POST', `/accounts/${t.accountUrlId}/apps`, { headers: t.platformHeaders, body: jsonApi('apps', { name: 'Mailer', webhook_url: `${hooks.url}/mailer` }) });
  expect((await rest('POST', `/accounts/${t.accountUrlId}/apps/${app.body.data.id}/webhook_secret`, { headers: t.platformHeaders })).status).toBe(201);
});
afterAll(() => hooks.close());

async function createTransfer(attributes: Record<string, unknown> = {}): Promise<string> {
  const r = await rest('POST', `/accounts/${t.accountUrlId}/data_transfers`, {
    headers: t.platformHeaders,
    body: jsonApi('data_transfers', { title: uniq('Data room '), recipient_email: 'investor@fund.example.com', recipient_name: 'Ivy Investor', agreement: 'You agree to keep this confidential.', ...attributes }),
  });
  expect(r.status).toBe(201);
  return r.body.data.attributes.code;
}

const pub = (method: string, path: string, type?: string, attributes?: Record<string, unknown>) => rest(method, path, type ? { body: jsonApi(type, attributes ?? {}) } : {});

/** request_access, then read the code from the app webhook (the operator's mailer would send it). */
async function accessCodeFor(code: string): Promise<string> {
  const seen = hooks.received.length;
  const r = await pub('POST', `/data_transfers/${code}/request_access`);
  expect(r.status).toBe(200);
  const hook = await hooks.waitFor((h) => h.json?.event === 'data_transfer.access_requested' && h.json.data.transfer_code === code && hooks.received.indexOf(h) >= seen);
  return hook.json.data.access_code;
}

async function verified(code: string): Promise<string> {
  const r = await pub('POST', `/data_transfers/${code}/verify_access`, 'data_transfer_access', { access_code: await accessCodeFor(code) });
  expect(r.status).toBe(200);
  return r.body.data.attributes.access_token;
}

async function auditActions(code: string): Promise<string[]> {
  const r = await rest('GET', `/accounts/${t.accountUrlId}/data_transfers/${code}/audit`, { headers: t.platformHeaders });
  expect(r.status).toBe(200);
  return r.body.data.map((e: any) => e.attributes.action);
}

describe('admin side (platform:admin)', () => {
  test('create → 201 with the public code; list and show; the audit starts with "created"', async () => {
    const r = await rest('POST', `/accounts/${t.accountUrlId}/data_transfers`, {
      headers: t.platformHeaders,
      body: jsonApi('data_transfers', {
        title: 'Series A data room',
        recipient_email: 'ivy@fund.example.com',
        agreement: 'NDA',
        contents: { files: [{ name: 'cap-table.xlsx', sizeBytes: 20480 }] },
        expires_in_days: 7,
      }),
    });
    expect(r.status).toBe(201);
    const a = r.body.data.attributes;
    expect(a).toMatchObject({ code: expect.stringMatching(/^dt_[A-Za-z0-9]{24}$/), status: 'open', expired: false, recipient_email: 'ivy@fund.example.com', contents: { files: [{ name: 'cap-table.xlsx', sizeBytes: 20480 }] } });
    expect(Math.abs(new Date(a.expires_at).getTime() - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);
    const list = await rest('GET', `/accounts/${t.accountUrlId}/data_transfers`, { headers: t.platformHeaders });
    expect(list.body.data.map((x: any) => x.attributes.code)).toContain(a.code);
    const shown = await rest('GET', `/accounts/${t.accountUrlId}/data_transfers/${a.code}`, { headers: t.platformHeaders });
    expect(shown.body.data.id).toBe(r.body.data.id);
    const audit = await rest('GET', `/accounts/${t.accountUrlId}/data_transfers/${a.code}/audit`, { headers: t.platformHeaders });
    expect(audit.body.data).toEqual([
      expect.objectContaining({ type: 'data_transfer_audit_entries', attributes: expect.objectContaining({ action: 'created', actor: expect.stringMatching(/^admin:/), detail: expect.objectContaining({ recipient_email: 'ivy@fund.example.com' }) }) }),
    ]);
  });

  test.each([
    [{ title: 'x', agreement: 'y' }, 'recipient_email'],
    [{ title: 'x', agreement: 'y', recipient_email: 'nope' }, 'recipient_email'],
    [{ title: '', agreement: 'y', recipient_email: 'a@b.co' }, 'title'],
    [{ title: 'x', agreement: 'y', recipient_email: 'a@b.co', expires_in_days: 400 }, 'expires_in_days'],
    [{ title: 'x', agreement: 'y', recipient_email: 'a@b.co', expires_at: '2000-01-01T00:00:00Z' }, 'expires_at'],
  ])('invalid %j → 422 naming %s', async (attributes, parameter) => {
    const r = await rest('POST', `/accounts/${t.accountUrlId}/data_transfers`, { headers: t.platformHeaders, body: jsonApi('data_transfers', attributes) });
    expectServiceError(r, P, 422, 'VALIDATION_FAILED', { parameter });
  });

  test('platform:manage is not enough for transfers', async () => {
    const token = mintToken({ scopes: ['platform:manage', 'platform:read'] });
    const r = await rest('GET', `/accounts/${t.accountUrlId}/data_transfers`, { headers: { authorization: `Bearer ${token}`, 'x-platform': t.platformCode } });
    expectServiceError(r, P, 403, 'INSUFFICIENT_SCOPE');
  });
});

describe('public flow (no credentials)', () => {
  test('GraphQL: anonymous callers reach the public fields at the gateway, not the admin ones', async () => {
    const code = await createTransfer();
    const r = await gql('query($c: String!) { publicDataTransfer(code: $c) { code status recipientEmail } }', { c: code });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({ publicDataTransfer: { code, status: 'open', recipientEmail: 'i•••@fund.example.com' } });
    const admin = await gql('query($u: String!) { dataTransfers(accountUrlId: $u) { code } }', { u: t.accountUrlId });
    expect(admin.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  test('details: no ids, no full e-mail; unknown code → 404; malformed → 404', async () => {
    const code = await createTransfer({ contents: { files: ['deck.pdf'] } });
    const r = await pub('GET', `/data_transfers/${code}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: code, type: 'data_transfers' });
    expect(r.body.data.attributes).toMatchObject({ status: 'open', account_name: expect.any(String), recipient_email: 'i•••@fund.example.com', contents: { files: ['deck.pdf'] } });
    expect(JSON.stringify(r.body)).not.toMatch(/acct_|dtr_|plat_|investor@/);
    expectServiceError(await pub('GET', '/data_transfers/dt_000000000000000000000000'), P, 404, 'DATA_TRANSFER_NOT_FOUND');
    expectServiceError(await pub('GET', '/data_transfers/whatever'), P, 404, 'DATA_TRANSFER_NOT_FOUND');
    expectServiceError(await pub('POST', '/data_transfers/dt_000000000000000000000000/request_access'), P, 404, 'DATA_TRANSFER_NOT_FOUND');
  });

  test('the whole flow: request → verify → accept (once) → events; every step audited in order', async () => {
    const code = await createTransfer();
    expect((await pub('GET', `/data_transfers/${code}`)).status).toBe(200);

    // accept before verified access → 401
    expectServiceError(await pub('POST', `/data_transfers/${code}/accept`, 'data_transfer_decisions', {}), P, 401, 'ACCESS_TOKEN_INVALID', { parameter: 'access_token' });
    expectServiceError(await pub('POST', `/data_transfers/${code}/accept`, 'data_transfer_decisions', { access_token: 'dtt_forged.sig' }), P, 401, 'ACCESS_TOKEN_INVALID');

    const accessCode = await accessCodeFor(code);
    expect(accessCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    // the code is stored hashed only
    const rows = await sql(`select c.* from platform.data_transfer_access_codes c join platform.data_transfers t on t.id = c.transfer_id where t.code = $1`, [code]);
    expect(JSON.stringify(rows)).not.toContain(accessCode);
    // ... and its trip through the outbox is sealed too
    const events = await sql(`select payload, secret_sealed from platform.account_events where event = 'data_transfer.access_requested' and payload->'data'->>'transfer_code' = $1`, [code]);
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain(accessCode);

    expectServiceError(await pub('POST', `/data_transfers/${code}/verify_access`, 'data_transfer_access', { access_code: 'ZZZZ-ZZZZ' }), P, 401, 'ACCESS_CODE_INVALID', { parameter: 'access_code' });
    expectServiceError(await pub('POST', `/data_transfers/${code}/verify_access`, 'data_transfer_access', { access_code: '12' }), P, 422, 'VALIDATION_FAILED', { parameter: 'access_code' });
    const v = await pub('POST', `/data_transfers/${code}/verify_access`, 'data_transfer_access', { access_code: accessCode.toLowerCase().replace('-', ' ') });
    expect(v.status).toBe(200);
    const token = v.body.data.attributes.access_token;
    expect(token).toMatch(/^dtt_/);
    // one-time: the same code again fails
    expectServiceError(await pub('POST', `/data_transfers/${code}/verify_access`, 'data_transfer_access', { access_code: accessCode }), P, 401, 'ACCESS_CODE_INVALID');

    // a token of another transfer does not work here
    const other = await createTransfer();
    expectServiceError(await pub('POST', `/data_transfers/${other}/accept`, 'data_transfer_decisions', { access_token: token }), P, 401, 'ACCESS_TOKEN_INVALID');

    expectServiceError(await pub('POST', `/data_transfers/${code}/events`, 'data_transfer_events', { access_token: token, event_type: 'downloaded' }), P, 409, 'DATA_TRANSFER_NOT_ACCEPTED');
    const viewed = await pub('POST', `/data_transfers/${code}/events`, 'data_transfer_events', { access_token: token, event_type: 'viewed', detail: { page: 3 } });
    expect(viewed.status).toBe(201);
    expect(viewed.body.data.attributes).toMatchObject({ action: 'event', actor: 'recipient', detail: { event_type: 'viewed', page: 3 } });
    // a client-supplied detail.event_type never overrides the validated type (a fake "downloaded" before acceptance)
    const forged = await pub('POST', `/data_transfers/${code}/events`, 'data_transfer_events', { access_token: token, event_type: 'viewed', detail: { event_type: 'downloaded' } });
    expect(forged.status).toBe(201);
    expect(forged.body.data.attributes.detail).toEqual({ event_type: 'viewed' });

    const accepted = await pub('POST', `/data_transfers/${code}/accept`, 'data_transfer_decisions', { access_token: token });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.attributes).toMatchObject({ status: 'accepted', decided_at: expect.any(String) });
    expectServiceError(await pub('POST', `/data_transfers/${code}/accept`, 'data_transfer_decisions', { access_token: token }), P, 409, 'DATA_TRANSFER_ALREADY_DECIDED');
    expectServiceError(await pub('POST', `/data_transfers/${code}/decline`, 'data_transfer_decisions', { access_token: token }), P, 409, 'DATA_TRANSFER_ALREADY_DECIDED');

    expect((await pub('POST', `/data_transfers/${code}/events`, 'data_transfer_events', { access_token: token, event_type: 'downloaded', detail: { file: 'deck.pdf' } })).status).toBe(201);
    expectServiceError(await pub('POST', `/data_transfers/${code}/events`, 'data_transfer_events', { access_token: token, event_type: 'teleported' }), P, 422, 'VALIDATION_FAILED', { parameter: 'event_type' });

    const admin = await rest('GET', `/accounts/${t.accountUrlId}/data_transfers/${code}`, { headers: t.platformHeaders });
    expect(admin.body.data.attributes).toMatchObject({ status: 'accepted' });
    expect(await auditActions(code)).toEqual([
      'created',
      'details_viewed',
      'access_requested',
      'access_denied',
      'access_verified',
      'access_denied',
      'event',
      'event',
      'accepted',
      'event',
    ]);
    // the account's webhook heard about the acceptance
    await hooks.waitFor((h) => h.json?.event === 'data_transfer.accepted' && h.json.data.transfer_code === code);
  });

  test('decline (with a reason) is final too', async () => {
    const code = await createTransfer();
    const token = await verified(code);
    const d = await pub('POST', `/data_transfers/${code}/decline`, 'data_transfer_decisions', { access_token: token, reason: 'Not interested' });
    expect(d.status).toBe(200);
    expect(d.body.data.attributes.status).toBe('declined');
    expectServiceError(await pub('POST', `/data_transfers/${code}/accept`, 'data_transfer_decisions', { access_token: token }), P, 409, 'DATA_TRANSFER_ALREADY_DECIDED');
    expectServiceError(await pub('POST', `/data_transfers/${code}/request_access`), P, 409, 'DATA_TRANSFER_ALREADY_DECIDED');
    const admin = await rest('GET', `/accounts/${t.accountUrlId}/data_transfers/${code}`, { headers: t.platformHeaders });
    expect(admin.body.data.attributes).toMatchObject({ status: 'declined', decline_reason: 'Not interested' });
  });

  test('concurrent accepts: exactly one wins, the others get 409', async () => {
    const code = await createTransfer();
    const token = await verified(code);
    const results = await Promise.all(Array.from({ length: 5 }, () => pub('POST', `/data_transfers/${code}/accept`, 'data_transfer_decisions', { access_token: token })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await auditActions(code)).filter((a) => a === 'accepted')).toHaveLength(1);
  });

  test('five wrong tries burn the code: the right one fails afterwards', async () => {
    const code = await createTransfer();
    const right = await accessCodeFor(code);
    for (let i = 0; i < 5; i++) {
      expectServiceError(await pub('POST', `/data_transfers/${code}/verify_access`, 'data_transfer_access', { access_code: 'AAAA-AAAA' }), P, 401, 'ACCESS_CODE_INVALID');
    }
    expectServiceError(await pub('POST', `/data_transfers/${code}/verify_access`, 'data_transfer_access', { access_code: right }), P, 401, 'ACCESS_CODE_INVALID');
    // a new request issues a fresh code, which works
    const fresh = await accessCodeFor(code);
    expect((await pub('POST', `/data_transfers/${code}/verify_access`, 'data_transfer_access', { access_code: fresh })).status).toBe(200);
  });

  test('at most 5 access codes per hour per transfer → 429', async () => {
    const code = await createTransfer();
    for (let i = 0; i < 5; i++) expect((await pub('POST', `/data_transfers/${code}/request_access`)).status).toBe(200);
    expectServiceError(await pub('POST', `/data_transfers/${code}/request_access`), P, 429, 'RATE_LIMITED');
  });

  test('expired → 410 on every public step; the admin still sees it', async () => {
    const code = await createTransfer();
    const token = await verified(code);
    await sql(`update platform.data_transfers set expires_at = now() - interval '1 minute' where code = $1`, [code]);
    expectServiceError(await pub('GET', `/data_transfers/${code}`), P, 410, 'DATA_TRANSFER_EXPIRED');
    expectServiceError(await pub('POST', `/data_transfers/${code}/request_access`), P, 410, 'DATA_TRANSFER_EXPIRED');
    expectServiceError(await pub('POST', `/data_transfers/${code}/verify_access`, 'data_transfer_access', { access_code: 'AAAA-AAAA' }), P, 410, 'DATA_TRANSFER_EXPIRED');
    expectServiceError(await pub('POST', `/data_transfers/${code}/accept`, 'data_transfer_decisions', { access_token: token }), P, 410, 'DATA_TRANSFER_EXPIRED');
    expectServiceError(await pub('POST', `/data_transfers/${code}/events`, 'data_transfer_events', { access_token: token, event_type: 'viewed' }), P, 410, 'DATA_TRANSFER_EXPIRED');
    const admin = await rest('GET', `/accounts/${t.accountUrlId}/data_transfers/${code}`, { headers: t.platformHeaders });
    expect(admin.body.data.attributes).toMatchObject({ status: 'open', expired: true });
  });

  test('the audit trail is append-only in the database itself (UPDATE and DELETE raise)', async () => {
    const code = await createTransfer();
    const [{ id }] = await sql(`select id from platform.data_transfers where code = $1`, [code]);
    await expect(sql(`update platform.data_transfer_audit set action = 'forged' where transfer_id = $1`, [id])).rejects.toThrow(/append-only/);
    await expect(sql(`delete from platform.data_transfer_audit where transfer_id = $1`, [id])).rejects.toThrow(/append-only/);
    expect(await auditActions(code)).toEqual(['created']);
  });

  test("another platform's admin cannot read this transfer or its audit (404)", async () => {
    const code = await createTransfer();
    const other = await createTenant();
    const r = await rest('GET', `/accounts/${t.accountUrlId}/data_transfers/${code}/audit`, { headers: other.platformHeaders });
    expectServiceError(r, P, 404, 'ACCOUNT_NOT_FOUND');
    const mine = await rest('GET', `/accounts/${other.accountUrlId}/data_transfers/${code}/audit`, { headers: other.platformHeaders });
    expectServiceError(mine, P, 404, 'DATA_TRANSFER_NOT_FOUND');
  });
});
