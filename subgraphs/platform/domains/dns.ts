// TXT lookups for domain verification through node:dns, on the resolvers of DNS_SERVERS (the
// system's when unset). A name that does not exist, or has no TXT records, is `missing`; a resolver
// that fails (timeout, SERVFAIL, refused) is an `error`, which never changes a verification state.
import { Resolver } from 'node:dns/promises';
import { loadConfig } from '../../../lib/config.js';
import type { Lookup, MailSettings } from './domain.rules.js';

const MISSING = new Set(['ENOTFOUND', 'ENODATA', 'NOTFOUND', 'NODATA']);

let resolver: Resolver | undefined;
let mail: MailSettings | undefined;

function settings(): { resolver: Resolver; mail: MailSettings } {
  if (!resolver || !mail) {
    const cfg = loadConfig();
    resolver = new Resolver({ timeout: 2000, tries: 2 });
    if (cfg.dnsServers.length) resolver.setServers(cfg.dnsServers);
    mail = { spfInclude: cfg.mailSpfInclude, dkimSelector: cfg.mailDkimSelector, dkimPublicKey: cfg.mailDkimPublicKey };
  }
  return { resolver, mail };
}

export function mailSettings(): MailSettings {
  return settings().mail;
}

/** Every TXT record at `name`, each record's character-strings joined (long records are split in 255-byte strings). */
export async function lookupTxt(name: string): Promise<Lookup> {
  try {
    const records = await settings().resolver.resolveTxt(name);
    return records.length ? { kind: 'found', values: records.map((chunks) => chunks.join('')) } : { kind: 'missing' };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (MISSING.has(code)) return { kind: 'missing' };
    return { kind: 'error', message: code || (e as Error).message };
  }
}
