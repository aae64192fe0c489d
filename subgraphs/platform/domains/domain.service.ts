// Domain verification of apps and accounts: verify issues a token (once per domain) and checks DNS;
// check consults DNS again. domain_verified follows the last conclusive check: true only when every
// record is published, false when DNS answered that one is missing, unchanged when DNS failed.
import { base62 } from '../../../lib/ids.js';
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { getApp } from '../apps/app.service.js';
import { AppEntity } from '../apps/app.entity.js';
import { fail } from '../validation.js';
import { lookupTxt, mailSettings } from './dns.js';
import { checkRecord, expectedRecords, overallStatus } from './domain.rules.js';
import type { VerificationView } from './domain.type.js';

type Subject = AppEntity | AccountEntity;

function domainOf(subject: Subject): string {
  if (!subject.preferredDomain) fail('preferredDomain', 'preferred_domain is not set: set it (PUT) before verifying it');
  return subject.preferredDomain;
}

/** Issue the verification token once: one conditional UPDATE, so concurrent verify calls agree on it. */
async function ensureToken(ctx: PlatformContext, subject: Subject): Promise<string> {
  if (subject.domainVerificationToken) return subject.domainVerificationToken;
  const entity = subject instanceof AppEntity ? AppEntity : AccountEntity;
  const token = base62(32);
  const won = await ctx.em.nativeUpdate(entity as typeof AppEntity, { id: subject.id, domainVerificationToken: null }, { domainVerificationToken: token });
  if (won) subject.domainVerificationToken = token;
  else await ctx.em.refresh(subject);
  return subject.domainVerificationToken!;
}

async function runCheck(ctx: PlatformContext, subject: Subject, domain: string, token: string, subjectType: VerificationView['subjectType']): Promise<VerificationView> {
  const mail = mailSettings();
  const expected = expectedRecords(domain, token, mail);
  const lookups = await Promise.all(expected.map((r) => lookupTxt(r.name)));
  const records = expected.map((r, i) => checkRecord(r, lookups[i], mail));
  const status = overallStatus(records, lookups);
  const now = new Date();
  subject.domainCheckedAt = now;
  if (status === 'verified' && !subject.domainVerified) subject.domainVerifiedAt = now;
  if (status !== 'dns_unavailable') subject.domainVerified = status === 'verified';
  if (status === 'pending') subject.domainVerifiedAt = null;
  await ctx.em.flush();
  if (status === 'dns_unavailable') ctx.log.warn('domain verification: DNS unavailable', { subjectType, id: subject.id, domain });
  return view(subject, domain, subjectType, status, records);
}

function view(subject: Subject, domain: string, subjectType: VerificationView['subjectType'], status: VerificationView['status'], records: VerificationView['records']): VerificationView {
  return {
    id: subject.id,
    subjectType,
    domain,
    status,
    domainVerified: subject.domainVerified,
    verifiedAt: subject.domainVerifiedAt,
    checkedAt: subject.domainCheckedAt,
    records,
  };
}

async function verify(ctx: PlatformContext, subject: Subject, subjectType: VerificationView['subjectType']): Promise<VerificationView> {
  const domain = domainOf(subject);
  return runCheck(ctx, subject, domain, await ensureToken(ctx, subject), subjectType);
}

async function check(ctx: PlatformContext, subject: Subject, subjectType: VerificationView['subjectType']): Promise<VerificationView> {
  const domain = domainOf(subject);
  const token = subject.domainVerificationToken;
  if (!token) return view(subject, domain, subjectType, 'not_started', []);
  return runCheck(ctx, subject, domain, token, subjectType);
}

export async function verifyAppDomain(ctx: PlatformContext, accountUrlId: string, appId: string): Promise<VerificationView> {
  return verify(ctx, (await getApp(ctx, accountUrlId, appId)).app, 'app');
}

export async function checkAppDomain(ctx: PlatformContext, accountUrlId: string, appId: string): Promise<VerificationView> {
  return check(ctx, (await getApp(ctx, accountUrlId, appId)).app, 'app');
}

export async function verifyAccountDomain(ctx: PlatformContext, urlId: string): Promise<VerificationView> {
  return verify(ctx, await getAccount(ctx, urlId), 'account');
}

export async function checkAccountDomain(ctx: PlatformContext, urlId: string): Promise<VerificationView> {
  return check(ctx, await getAccount(ctx, urlId), 'account');
}
