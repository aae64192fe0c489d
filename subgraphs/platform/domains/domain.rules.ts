// Pure rules of domain verification: which DNS records a domain must publish and whether what DNS
// answered satisfies them. No I/O (dns.ts does the lookups). Three TXT records, all required:
//  - ownership: `_platform-verification.<domain>` = `platform-verification=<token>` (the token we issued)
//  - SPF:       the domain's one `v=spf1` record must `include:` our sending domain (MAIL_SPF_INCLUDE)
//  - DKIM:      `<selector>._domainkey.<domain>` must be a DKIM1 key record (MAIL_DKIM_SELECTOR), with
//               exactly our public key when MAIL_DKIM_PUBLIC_KEY is configured
import { createPublicKey } from 'node:crypto';

export const OWNERSHIP_LABEL = '_platform-verification';
export const OWNERSHIP_PREFIX = 'platform-verification=';

export type RecordPurpose = 'ownership' | 'spf' | 'dkim';
export type Lookup = { kind: 'found'; values: string[] } | { kind: 'missing' } | { kind: 'error'; message: string };

export interface MailSettings {
  spfInclude: string;
  dkimSelector: string;
  dkimPublicKey?: string;
}

export interface ExpectedRecord {
  purpose: RecordPurpose;
  type: 'TXT';
  name: string;
  /** what to publish (for SPF and DKIM: an example that passes) */
  value: string;
}

export interface RecordCheck extends ExpectedRecord {
  ok: boolean;
  found: string[];
  problem?: string;
}

export type VerificationStatus = 'not_started' | 'pending' | 'verified' | 'dns_unavailable';

export function expectedRecords(domain: string, token: string, mail: MailSettings): ExpectedRecord[] {
  return [
    { purpose: 'ownership', type: 'TXT', name: `${OWNERSHIP_LABEL}.${domain}`, value: `${OWNERSHIP_PREFIX}${token}` },
    { purpose: 'spf', type: 'TXT', name: domain, value: `v=spf1 include:${mail.spfInclude} ~all` },
    {
      purpose: 'dkim',
      type: 'TXT',
      name: `${mail.dkimSelector}._domainkey.${domain}`,
      value: `v=DKIM1; k=rsa; p=${mail.dkimPublicKey ?? '<your sending public key, base64>'}`,
    },
  ];
}

/** `v=spf1 include:a ~all` → does it include `include` (case-insensitive, RFC 7208 mechanism syntax)? */
export function spfIncludes(record: string, include: string): boolean {
  const terms = record.trim().split(/\s+/);
  if (terms[0]?.toLowerCase() !== 'v=spf1') return false;
  return terms.slice(1).some((t) => /^[+~?]?include:/i.test(t) && t.replace(/^[+~?]?include:/i, '').toLowerCase().replace(/\.$/, '') === include);
}

/** DKIM tag list (`v=DKIM1; k=rsa; p=...`) → map; whitespace inside values (folded records) removed. */
export function dkimTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).replace(/\s+/g, ''));
  }
  return tags;
}

/** Why a DKIM record is unusable, or undefined when it is a valid key record (and, if given, our key). */
export function dkimProblem(record: string, ourKey?: string): string | undefined {
  const tags = dkimTags(record);
  const v = tags.get('v');
  if (v !== undefined && v !== 'DKIM1') return 'v= must be DKIM1';
  const k = (tags.get('k') ?? 'rsa').toLowerCase();
  const p = tags.get('p');
  if (!p) return 'p= (the public key) is missing or empty (an empty p= means a revoked key)';
  if (ourKey && p !== ourKey.replace(/\s+/g, '')) return 'p= is not our sending public key';
  const der = Buffer.from(p, 'base64');
  if (k === 'ed25519') return der.length === 32 ? undefined : 'p= is not a 32-byte Ed25519 key';
  if (k !== 'rsa') return `k=${k} is not a DKIM key type (rsa or ed25519)`;
  try {
    const key = createPublicKey({ key: der, format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'rsa' ? undefined : 'p= is not an RSA public key';
  } catch {
    return 'p= is not a valid base64 RSA public key';
  }
}

/** One expected record against what DNS answered for its name. */
export function checkRecord(expected: ExpectedRecord, lookup: Lookup, mail: MailSettings): RecordCheck {
  if (lookup.kind === 'error') return { ...expected, ok: false, found: [], problem: `DNS lookup failed: ${lookup.message}` };
  const all = lookup.kind === 'found' ? lookup.values : [];
  const missing = (what: string): RecordCheck => ({ ...expected, ok: false, found: all, problem: `no ${what} record at ${expected.name}` });
  switch (expected.purpose) {
    case 'ownership': {
      const ok = all.some((v) => v.trim() === expected.value);
      return ok ? { ...expected, ok, found: all } : missing(`TXT "${expected.value}"`);
    }
    case 'spf': {
      const spf = all.filter((v) => /^v=spf1(\s|$)/i.test(v.trim()));
      if (spf.length === 0) return missing('SPF (v=spf1)');
      if (spf.length > 1) return { ...expected, ok: false, found: spf, problem: 'more than one SPF record: receivers treat that as an error (RFC 7208 §4.5); merge them' };
      if (!spfIncludes(spf[0], mail.spfInclude)) return { ...expected, ok: false, found: spf, problem: `the SPF record does not include:${mail.spfInclude}` };
      return { ...expected, ok: true, found: spf };
    }
    case 'dkim': {
      const dkim = all.filter((v) => /(^|;)\s*(v=DKIM1|p=)/i.test(v));
      if (dkim.length === 0) return missing('DKIM key');
      const problems = dkim.map((v) => dkimProblem(v, mail.dkimPublicKey));
      const good = problems.findIndex((p) => p === undefined);
      return good >= 0 ? { ...expected, ok: true, found: dkim } : { ...expected, ok: false, found: dkim, problem: problems[0] };
    }
  }
}

/** verified: every record passes; dns_unavailable: some lookup failed (state left as it was); else pending. */
export function overallStatus(checks: RecordCheck[], lookups: Lookup[]): VerificationStatus {
  if (lookups.some((l) => l.kind === 'error')) return 'dns_unavailable';
  return checks.every((c) => c.ok) ? 'verified' : 'pending';
}
