// IP allow-lists: CIDRs and single addresses, IPv4 and IPv6, compiled once into a net.BlockList.
// Used by API-key allow-lists (gateway/auth/api-key.ts) and TRUSTED_PROXIES (lib/client-address.ts).
import net from 'node:net';

/** CIDRs and single addresses (IPv4-mapped IPv6 client addresses are normalised when checked). */
export function compileAllowList(entries: string[]): net.BlockList | null {
  if (!entries.length) return null;
  const list = new net.BlockList();
  for (const raw of entries) {
    const [addr, bits] = raw.trim().split('/');
    const type = net.isIPv6(addr) ? 'ipv6' : 'ipv4';
    if (!net.isIP(addr)) continue;
    const prefix = Number(bits);
    if (bits === undefined) list.addAddress(addr, type);
    // An impossible prefix is skipped like an invalid address (the platform validates on write).
    else if (Number.isInteger(prefix) && prefix >= 0 && prefix <= (type === 'ipv6' ? 128 : 32)) list.addSubnet(addr, prefix, type);
  }
  return list;
}

/** `::ffff:127.0.0.1` → `127.0.0.1`, so lists written with IPv4 addresses match. */
export function normaliseIp(ip: string | undefined): string | undefined {
  return ip?.startsWith('::ffff:') && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
}

export function ipAllowed(list: net.BlockList | null, ip: string | undefined): boolean {
  if (!list) return true;
  if (!ip) return false;
  const v4 = normaliseIp(ip)!;
  if (!net.isIP(v4)) return false;
  return list.check(v4, net.isIPv6(v4) ? 'ipv6' : 'ipv4');
}
