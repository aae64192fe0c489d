// Server-side fetches of client-given URLs (webhook targets, image URLs) must not reach the
// machine itself or the private network behind it (SSRF). CONTRACT: loopback, private and
// link-local targets are refused unless ALLOW_PRIVATE_NETWORK_FETCH=1.
//
// The check runs on resolved addresses, not on the hostname text: `guardedLookup` is given to
// http.request as its `lookup`, so the address checked is the address connected to (a DNS answer
// that changes between a validation and the request — DNS rebinding — cannot slip through).
// A hostname with any refused address is refused as a whole.
import dns from 'node:dns';
import net from 'node:net';

const BLOCKED = new net.BlockList();
const V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const V6: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b::', 96, 'NAT64'],
  ['100::', 64, 'discard'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'private (unique local)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];
const REASONS: { list: net.BlockList; reason: string }[] = [];
for (const [addr, bits, reason] of V4) {
  BLOCKED.addSubnet(addr, bits, 'ipv4');
  const one = new net.BlockList();
  one.addSubnet(addr, bits, 'ipv4');
  REASONS.push({ list: one, reason });
}
for (const [addr, bits, reason] of V6) {
  BLOCKED.addSubnet(addr, bits, 'ipv6');
  const one = new net.BlockList();
  one.addSubnet(addr, bits, 'ipv6');
  REASONS.push({ list: one, reason });
}

/** Why `ip` may not be fetched (e.g. 'loopback'), or null when it is a public address. */
export function blockedReason(ip: string): string | null {
  const family = net.isIP(ip);
  if (!family) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  // v4-mapped v6 (::ffff:10.0.0.1) is checked as the v4 address it carries
  const mapped = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] : undefined;
  if (mapped) return blockedReason(mapped);
  if (!BLOCKED.check(ip, type)) return null;
  for (const r of REASONS) if (r.list.check(ip, type)) return r.reason;
  return 'private';
}

export class NetGuardError extends Error {
  readonly code = 'ENETGUARD';
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`${host} resolves to a ${reason} address; server-side requests to private networks are refused (ALLOW_PRIVATE_NETWORK_FETCH=1 allows them)`);
    this.name = 'NetGuardError';
  }
}

type Resolve = (hostname: string) => Promise<dns.LookupAddress[]>;
const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Resolve `hostname` and refuse it when any address is private (unless allowPrivate). */
export async function resolvePublic(hostname: string, opts: { allowPrivate: boolean; resolve?: Resolve }): Promise<dns.LookupAddress[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(bare) ? [{ address: bare, family: net.isIP(bare) }] : await (opts.resolve ?? systemResolve)(bare);
  if (!addresses.length) throw new NetGuardError(hostname, 'unresolvable');
  if (!opts.allowPrivate) {
    for (const a of addresses) {
      const reason = blockedReason(a.address);
      if (reason) throw new NetGuardError(hostname, reason);
    }
  }
  return addresses;
}

/** Validate a client-given URL before storing it: http(s) and, unless allowed, a public host. */
export async function checkFetchTarget(raw: string, opts: { allowPrivate: boolean; resolve?: Resolve }): Promise<URL> {
  const u = new URL(raw);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new NetGuardError(u.host, 'non-http');
  await resolvePublic(u.hostname, opts);
  return u;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A `lookup` for http.request / net.connect that refuses private addresses at connect time. */
export function guardedLookup(opts: { allowPrivate: boolean; resolve?: Resolve }) {
  return (hostname: string, options: dns.LookupOptions | number | LookupCallback, callback?: LookupCallback): void => {
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
    const all = typeof options === 'object' && options !== null && options.all === true;
    resolvePublic(hostname, opts).then(
      (addresses) => (all ? cb(null, addresses) : cb(null, addresses[0].address, addresses[0].family)),
      (e: NodeJS.ErrnoException) => cb(e, all ? [] : ''),
    );
  };
}
