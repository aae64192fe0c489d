// Server-side requests to client-given URLs (webhook targets) must not reach loopback, private,
// link-local or otherwise internal addresses (CONTRACT.md), unless ALLOW_PRIVATE_NETWORK_FETCH=1.
// Checked when a webhook is registered (literal addresses and DNS names) and again on every
// delivery through the socket's own DNS lookup, so a name re-pointed at an internal address
// (DNS rebinding) is refused at connect time.
import dns from 'node:dns';
import net from 'node:net';
import { DomainError } from '../../../lib/errors.js';

const BLOCKED = new net.BlockList();
for (const [addr, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(addr, bits, 'ipv4');
}
for (const [addr, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  BLOCKED.addSubnet(addr, bits, 'ipv6');
}

export function isInternalAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
  if (net.isIPv4(ip)) return BLOCKED.check(ip, 'ipv4');
  if (net.isIPv6(ip)) return BLOCKED.check(ip, 'ipv6');
  return true;
}

/** Validate a webhook URL at registration: http(s), no credentials, a public destination. */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DomainError('invalid_webhook_url', `\`${raw.slice(0, 200)}\` is not a valid URL.`, { parameter: 'url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DomainError('invalid_webhook_url', `Webhook URLs must use http or https (got ${url.protocol}).`, { parameter: 'url' });
  }
  if (url.username || url.password) throw new DomainError('invalid_webhook_url', 'Webhook URLs must not carry credentials.', { parameter: 'url' });
  if (raw.length > 2048) throw new DomainError('invalid_webhook_url', 'Webhook URLs are limited to 2048 characters.', { parameter: 'url' });
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw new DomainError('invalid_webhook_url', `The host of ${url.origin} does not resolve.`, { parameter: 'url' });
    }
  }
  if (addresses.some(isInternalAddress)) {
    throw new DomainError('invalid_webhook_url', `${url.origin} points at a loopback, private or link-local address; webhooks must reach a public address.`, {
      parameter: 'url',
    });
  }
  return url;
}

/** A `lookup` for http.request that refuses internal addresses (unless allowed). */
export function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as unknown as dns.LookupAddress[];
      const bad = !allowPrivate && list.find((a) => isInternalAddress(a.address));
      if (bad) return callback(Object.assign(new Error(`refused: ${hostname} resolves to internal address ${bad.address}`), { code: 'EINTERNAL' }), '', 4);
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
