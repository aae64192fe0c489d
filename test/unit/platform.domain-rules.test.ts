// subgraphs/platform/domains/domain.rules.ts: which records a domain must publish and when DNS
// answers satisfy them (pure; the e2e suite runs the same rules against a real DNS server).
import { generateKeyPairSync } from 'node:crypto';
import { checkRecord, dkimProblem, expectedRecords, overallStatus, spfIncludes, type Lookup } from '../../subgraphs/platform/domains/domain.rules.js';

const MAIL = { spfInclude: '_spf.mail.example.com', dkimSelector: 'sg1' };
const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const ed = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }).subarray(-32).toString('base64');
const found = (...values: string[]): Lookup => ({ kind: 'found', values });

describe('expected records', () => {
  test('ownership TXT under _platform-verification, SPF at the domain, DKIM under the selector', () => {
    const [own, spf, dkim] = expectedRecords('mail.acme.io', 'TOKEN', MAIL);
    expect(own).toEqual({ purpose: 'ownership', type: 'TXT', name: '_platform-verification.mail.acme.io', value: 'platform-verification=TOKEN' });
    expect(spf).toMatchObject({ name: 'mail.acme.io', value: 'v=spf1 include:_spf.mail.example.com ~all' });
    expect(dkim).toMatchObject({ name: 'sg1._domainkey.mail.acme.io' });
    expect(expectedRecords('a.io', 't', { ...MAIL, dkimPublicKey: 'KEY' })[2].value).toBe('v=DKIM1; k=rsa; p=KEY');
  });
});

describe('SPF', () => {
  test.each([
    ['v=spf1 include:_spf.mail.example.com ~all', true],
    ['v=spf1 ip4:1.2.3.4 +include:_SPF.mail.example.com. -all', true],
    ['V=SPF1 ~include:_spf.mail.example.com ?all', true],
    ['v=spf1 include:_spf.mail.example.com.evil.io ~all', false],
    ['v=spf1 redirect=_spf.mail.example.com', false],
    ['include:_spf.mail.example.com', false],
  ])('%s → %s', (record, ok) => expect(spfIncludes(record, MAIL.spfInclude)).toBe(ok));

  test('exactly one SPF record; other TXT records at the name are ignored', () => {
    const spf = expectedRecords('a.io', 't', MAIL)[1];
    expect(checkRecord(spf, found('google-site-verification=x', 'v=spf1 include:_spf.mail.example.com ~all'), MAIL)).toMatchObject({ ok: true, found: ['v=spf1 include:_spf.mail.example.com ~all'] });
    expect(checkRecord(spf, found('v=spf1 include:_spf.mail.example.com ~all', 'v=spf1 -all'), MAIL).problem).toMatch(/more than one SPF/);
    expect(checkRecord(spf, found('google-site-verification=x'), MAIL).problem).toMatch(/no SPF/);
    expect(checkRecord(spf, { kind: 'missing' }, MAIL)).toMatchObject({ ok: false, found: [] });
  });
});

describe('DKIM', () => {
  test('valid RSA (SPKI) and Ed25519 keys; k defaults to rsa; folded whitespace is ignored', () => {
    expect(dkimProblem(`v=DKIM1; k=rsa; p=${rsa}`)).toBeUndefined();
    expect(dkimProblem(`p=${rsa.slice(0, 40)} ${rsa.slice(40)}`)).toBeUndefined();
    expect(dkimProblem(`v=DKIM1; k=ed25519; p=${ed}`)).toBeUndefined();
  });

  test.each([
    ['v=DKIM1; k=rsa; p=', /revoked/],
    ['v=DKIM2; p=abc', /DKIM1/],
    ['v=DKIM1; k=dsa; p=abcd', /not a DKIM key type/],
    ['v=DKIM1; p=bm90IGEga2V5', /not a valid/],
    ['v=DKIM1; k=ed25519; p=bm90IGEga2V5', /32-byte/],
  ])('%s is refused', (record, problem) => expect(dkimProblem(record)).toMatch(problem));

  test('with MAIL_DKIM_PUBLIC_KEY configured, only that key passes', () => {
    expect(dkimProblem(`v=DKIM1; p=${rsa}`, rsa)).toBeUndefined();
    const other = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    expect(dkimProblem(`v=DKIM1; p=${other}`, rsa)).toMatch(/not our sending public key/);
  });
});

describe('overall status', () => {
  const exp = expectedRecords('a.io', 'T', MAIL);
  const good: Lookup[] = [found('platform-verification=T'), found('v=spf1 include:_spf.mail.example.com ~all'), found(`v=DKIM1; p=${rsa}`)];
  const checks = (ls: Lookup[]) => exp.map((e, i) => checkRecord(e, ls[i], MAIL));

  test('verified only when all three pass', () => {
    expect(overallStatus(checks(good), good)).toBe('verified');
    for (let i = 0; i < 3; i++) {
      const ls = good.map((l, j) => (j === i ? ({ kind: 'missing' } as Lookup) : l));
      expect(overallStatus(checks(ls), ls)).toBe('pending');
    }
    const wrongToken: Lookup[] = [found('platform-verification=X'), good[1], good[2]];
    expect(overallStatus(checks(wrongToken), wrongToken)).toBe('pending');
  });

  test('a failed lookup makes the whole check inconclusive', () => {
    const ls: Lookup[] = [good[0], { kind: 'error', message: 'ESERVFAIL' }, good[2]];
    expect(overallStatus(checks(ls), ls)).toBe('dns_unavailable');
    expect(checks(ls)[1].problem).toBe('DNS lookup failed: ESERVFAIL');
  });
});
