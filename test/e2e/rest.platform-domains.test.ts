// Domain verification against real DNS: the stack's resolver is pointed (DNS_SERVERS) at a small DNS
// server running in this test process (test/harness/dns-server.ts); tests publish records in it.
// domain_verified flips only when the ownership TXT, the SPF include and a DKIM key are all there.
import { generateKeyPairSync } from 'node:crypto';
import { createTenant, jsonApi, mintToken, rest, stack, uniq, type Tenant } from '../harness/client.js';
import { TestDnsServer } from '../harness/dns-server.js';
import { expectServiceError } from '../harness/security.js';

let dns: TestDnsServer;
beforeAll(async () => {
  const port = Number(stack().env.DNS_SERVERS.split(':')[1]);
  dns = await TestDnsServer.start(port);
});
afterAll(() => dns.close());

const SPF_INCLUDE = '_spf.mail.example.com'; // the documented default of MAIL_SPF_INCLUDE
const SELECTOR = 'sg1'; // MAIL_DKIM_SELECTOR's default
const dkimKey = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

/** Publish every record the verification response asks for (SPF and DKIM with passing values). */
function publishAll(domain: string, token: string): void {
  dns.setTxt(`_platform-verification.${domain}`, `platform-verification=${token}`);
  dns.setTxt(domain, ['google-site-verification=abc', `v=spf1 include:${SPF_INCLUDE} ~all`]);
  dns.setTxt(`${SELECTOR}._domainkey.${domain}`, `v=DKIM1; k=rsa; p=${dkimKey}`);
}

async function appWithDomain(t: Tenant, domain: string): Promise<string> {
  const r = await rest('POST', `/accounts/${t.accountUrlId}/apps`, { body: jsonApi('apps', { name: 'Mail app', preferred_domain: domain }), headers: t.platformHeaders });
  expect(r.status).toBe(201);
  return r.body.data.id;
}

const record = (body: any, purpose: string) => (body.data.attributes.records as any[]).find((r) => r.purpose === purpose);

describe('app domain verification', () => {
  test('verify issues a token and lists the records; domain_verified flips only once all three are published', async () => {
    const t = await createTenant();
    const domain = `${uniq('mail')}.example.test`;
    const appId = await appWithDomain(t, domain);
    const base = `/accounts/${t.accountUrlId}/apps/${appId}`;

    // before verify: nothing issued, no DNS traffic
    const before = await rest('GET', `${base}/check_domain`, { headers: t.platformHeaders });
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ id: appId, type: 'domain_verifications', attributes: { status: 'not_started', domain_verified: false, records: [], domain } });

    const v = await rest('POST', `${base}/verify_domain`, { headers: t.platformHeaders });
    expect(v.status).toBe(200);
    expect(v.body.data.attributes).toMatchObject({ subject_type: 'app', domain, status: 'pending', domain_verified: false, checked_at: expect.any(String) });
    const own = record(v.body, 'ownership');
    expect(own.name).toBe(`_platform-verification.${domain}`);
    const token = own.value.replace('platform-verification=', '');
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(record(v.body, 'spf')).toMatchObject({ name: domain, value: `v=spf1 include:${SPF_INCLUDE} ~all`, ok: false });
    expect(record(v.body, 'dkim')).toMatchObject({ name: `${SELECTOR}._domainkey.${domain}`, ok: false });
    expect(dns.asked).toEqual(expect.arrayContaining([own.name, domain, `${SELECTOR}._domainkey.${domain}`]));

    // two of three: still not verified
    dns.setTxt(own.name, own.value);
    dns.setTxt(domain, `v=spf1 include:${SPF_INCLUDE} -all`);
    const partial = await rest('GET', `${base}/check_domain`, { headers: t.platformHeaders });
    expect(partial.body.data.attributes).toMatchObject({ status: 'pending', domain_verified: false });
    expect(record(partial.body, 'ownership').ok).toBe(true);
    expect(record(partial.body, 'spf').ok).toBe(true);
    expect(record(partial.body, 'dkim')).toMatchObject({ ok: false, problem: expect.stringContaining('no DKIM') });
    const apps = await rest('GET', `/accounts/${t.accountUrlId}/apps`, { headers: t.platformHeaders });
    expect((apps.body.data as any[]).find((a) => a.id === appId).attributes.domain_verified).toBe(false);

    // all three
    publishAll(domain, token);
    const done = await rest('GET', `${base}/check_domain`, { headers: t.platformHeaders });
    expect(done.body.data.attributes).toMatchObject({ status: 'verified', domain_verified: true, verified_at: expect.any(String) });
    expect(record(done.body, 'spf').found).toEqual([`v=spf1 include:${SPF_INCLUDE} ~all`]); // only the SPF record, not the other TXT
    const after = await rest('GET', `/accounts/${t.accountUrlId}/apps`, { headers: t.platformHeaders });
    expect((after.body.data as any[]).find((a) => a.id === appId).attributes.domain_verified).toBe(true);

    // verifying again keeps the token (the records already published stay valid)
    const again = await rest('POST', `${base}/verify_domain`, { headers: t.platformHeaders });
    expect(record(again.body, 'ownership').value).toBe(own.value);
    expect(again.body.data.attributes.domain_verified).toBe(true);
  });

  test('wrong records do not verify: another token, SPF without our include, two SPF records, a revoked or malformed DKIM key', async () => {
    const t = await createTenant();
    const domain = `${uniq('mail')}.example.test`;
    const appId = await appWithDomain(t, domain);
    const base = `/accounts/${t.accountUrlId}/apps/${appId}`;
    const v = await rest('POST', `${base}/verify_domain`, { headers: t.platformHeaders });
    const token = record(v.body, 'ownership').value.replace('platform-verification=', '');
    publishAll(domain, token);
    const check = () => rest('GET', `${base}/check_domain`, { headers: t.platformHeaders });
    expect((await check()).body.data.attributes.domain_verified).toBe(true);

    const cases: [string, () => void, string, RegExp][] = [
      ['another token', () => dns.setTxt(`_platform-verification.${domain}`, 'platform-verification=someoneelse'), 'ownership', /no TXT/],
      ['SPF without our include', () => dns.setTxt(domain, 'v=spf1 include:_spf.google.com ~all'), 'spf', /does not include/],
      ['two SPF records', () => dns.setTxt(domain, [`v=spf1 include:${SPF_INCLUDE} ~all`, 'v=spf1 -all']), 'spf', /more than one SPF/],
      ['a revoked DKIM key (empty p=)', () => dns.setTxt(`${SELECTOR}._domainkey.${domain}`, 'v=DKIM1; k=rsa; p='), 'dkim', /revoked/],
      ['a DKIM key that is not a key', () => dns.setTxt(`${SELECTOR}._domainkey.${domain}`, 'v=DKIM1; k=rsa; p=bm90IGEga2V5'), 'dkim', /not a valid/],
    ];
    for (const [what, breakIt, purpose, problem] of cases) {
      publishAll(domain, token);
      breakIt();
      const r = await check();
      expect({ what, status: r.body.data.attributes.status, verified: r.body.data.attributes.domain_verified }).toEqual({ what, status: 'pending', verified: false });
      expect({ what, problem: record(r.body, purpose).problem }).toEqual({ what, problem: expect.stringMatching(problem) });
    }
    publishAll(domain, token);
    expect((await check()).body.data.attributes.domain_verified).toBe(true);
  });

  test('a failing DNS server changes nothing (dns_unavailable); changing the domain resets verification and the token', async () => {
    const t = await createTenant();
    const domain = `${uniq('mail')}.example.test`;
    const appId = await appWithDomain(t, domain);
    const base = `/accounts/${t.accountUrlId}/apps/${appId}`;
    const v = await rest('POST', `${base}/verify_domain`, { headers: t.platformHeaders });
    const token = record(v.body, 'ownership').value.replace('platform-verification=', '');
    publishAll(domain, token);
    expect((await rest('GET', `${base}/check_domain`, { headers: t.platformHeaders })).body.data.attributes.domain_verified).toBe(true);

    dns.fail(domain);
    const broken = await rest('GET', `${base}/check_domain`, { headers: t.platformHeaders });
    expect(broken.body.data.attributes).toMatchObject({ status: 'dns_unavailable', domain_verified: true });
    expect(record(broken.body, 'spf').problem).toMatch(/DNS lookup failed/);
    dns.fail(domain, false);

    const other = `${uniq('mail')}.example.test`;
    const moved = await rest('PUT', base, { body: jsonApi('apps', { preferred_domain: other }), headers: t.platformHeaders });
    expect(moved.body.data.attributes).toMatchObject({ preferred_domain: other, domain_verified: false });
    expect((await rest('GET', `${base}/check_domain`, { headers: t.platformHeaders })).body.data.attributes.status).toBe('not_started');
    const v2 = await rest('POST', `${base}/verify_domain`, { headers: t.platformHeaders });
    expect(record(v2.body, 'ownership').value).not.toBe(`platform-verification=${token}`);
  });

  test('an app without preferred_domain → 422 naming preferred_domain; a foreign app → 404', async () => {
    const t = await createTenant();
    const r = await rest('POST', `/accounts/${t.accountUrlId}/apps/${t.appId}/verify_domain`, { headers: t.platformHeaders });
    expectServiceError(r, 'platform', 422, 'VALIDATION_FAILED', { parameter: 'preferred_domain' });
    const other = await createTenant();
    const foreign = await rest('GET', `/accounts/${t.accountUrlId}/apps/${other.appId}/check_domain`, { headers: t.platformHeaders });
    expectServiceError(foreign, 'platform', 404, 'APP_NOT_FOUND');
  });
});

describe('account domain verification', () => {
  test('POST /accounts/:url_id/domain/verify and GET .../domain/check: verified only with every record', async () => {
    const t = await createTenant();
    const domain = `${uniq('acct')}.example.test`;
    const put = await rest('PUT', `/accounts/${t.accountUrlId}`, { body: jsonApi('accounts', { preferred_domain: domain }), headers: t.platformHeaders });
    expect(put.body.data.attributes).toMatchObject({ preferred_domain: domain, domain_verified: false });
    const v = await rest('POST', `/accounts/${t.accountUrlId}/domain/verify`, { headers: t.platformHeaders });
    expect(v.status).toBe(200);
    expect(v.body.data.attributes).toMatchObject({ subject_type: 'account', status: 'pending', domain_verified: false });
    const token = record(v.body, 'ownership').value.replace('platform-verification=', '');

    dns.setTxt(`_platform-verification.${domain}`, `platform-verification=${token}`);
    dns.setTxt(`${SELECTOR}._domainkey.${domain}`, `v=DKIM1; k=rsa; p=${dkimKey}`);
    const noSpf = await rest('GET', `/accounts/${t.accountUrlId}/domain/check`, { headers: t.platformHeaders });
    expect(noSpf.body.data.attributes).toMatchObject({ status: 'pending', domain_verified: false });
    expect(record(noSpf.body, 'spf').problem).toMatch(/no SPF/);

    publishAll(domain, token);
    const ok = await rest('GET', `/accounts/${t.accountUrlId}/domain/check`, { headers: t.platformHeaders });
    expect(ok.body.data.attributes).toMatchObject({ status: 'verified', domain_verified: true });
    expect((await rest('GET', `/accounts/${t.accountUrlId}`, { headers: t.platformHeaders })).body.data.attributes.domain_verified).toBe(true);

    // records removed later: the next conclusive check turns it off again
    dns.remove(`${SELECTOR}._domainkey.${domain}`);
    const gone = await rest('GET', `/accounts/${t.accountUrlId}/domain/check`, { headers: t.platformHeaders });
    expect(gone.body.data.attributes).toMatchObject({ status: 'pending', domain_verified: false });
  });

  test('an account without preferred_domain → 422; a read-only token may check but not verify', async () => {
    const t = await createTenant();
    expectServiceError(await rest('GET', `/accounts/${t.accountUrlId}/domain/check`, { headers: t.platformHeaders }), 'platform', 422, 'VALIDATION_FAILED', { parameter: 'preferred_domain' });
    await rest('PUT', `/accounts/${t.accountUrlId}`, { body: jsonApi('accounts', { preferred_domain: `${uniq('r')}.example.test` }), headers: t.platformHeaders });
    const reader = { authorization: `Bearer ${mintToken({ scopes: ['platform:read'] })}`, 'x-platform': t.platformCode };
    expect((await rest('GET', `/accounts/${t.accountUrlId}/domain/check`, { headers: reader })).status).toBe(200);
    expectServiceError(await rest('POST', `/accounts/${t.accountUrlId}/domain/verify`, { headers: reader }), 'platform', 403, 'INSUFFICIENT_SCOPE');
  });
});
