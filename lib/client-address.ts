// Who the client is, behind proxies (docs/security.md, "Client address"). X-Forwarded-For is
// believed only when the socket peer is in TRUSTED_PROXIES, and then hop by hop from the right: the
// client is the rightmost address that is not a trusted proxy, so a client-sent X-Forwarded-For
// cannot put an address of its choice in front of a load balancer's entry. Unset TRUSTED_PROXIES:
// the socket peer is the client.
//
// The REST bridge resolves the address this way and hands it to the gateway in a header signed with
// INTERNAL_SECRET (x-client-address, 60 s), so the gateway needs no trust in the bridge's address.
import { createHmac, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import { compileAllowList, ipAllowed, normaliseIp } from './ip-list.js';

export const CLIENT_ADDRESS_HEADER = 'x-client-address';
const SIGNED_MAX_AGE_MS = 60_000;

export interface ClientAddressResolver {
  /** the client's address from the socket peer and the X-Forwarded-For header value */
  resolve(peer: string | undefined, forwardedFor: string | string[] | undefined): string | undefined;
}

export function clientAddressResolver(trustedProxies: string[]): ClientAddressResolver {
  const trusted = compileAllowList(trustedProxies);
  const isTrusted = (ip: string | undefined) => !!trusted && !!ip && ipAllowed(trusted, ip);
  return {
    resolve(peer, forwardedFor) {
      const client = normaliseIp(peer);
      if (!isTrusted(client)) return client;
      const raw = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
      const hops = raw
        .split(',')
        .map((h) => normaliseIp(h.trim()))
        .filter((h): h is string => !!h);
      let last = client;
      for (let i = hops.length - 1; i >= 0; i--) {
        // a hop that is not an address ends the chain: everything left of it is client-written
        if (!net.isIP(hops[i])) return last;
        last = hops[i];
        if (!isTrusted(last)) return last;
      }
      return last;
    },
  };
}

function mac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(`client-address:${payload}`).digest('base64url');
}

export function signClientAddress(ip: string, secret: string, now = Date.now()): string {
  const payload = `${Buffer.from(ip).toString('base64url')}.${now}`;
  return `${payload}.${mac(secret, payload)}`;
}

/** The address in a signed header, or undefined when absent, forged or older than 60 s. */
export function verifyClientAddress(header: string | string[] | undefined, secret: string, now = Date.now()): string | undefined {
  const v = Array.isArray(header) ? header[0] : header;
  if (!v) return undefined;
  const parts = v.split('.');
  if (parts.length !== 3) return undefined;
  const payload = `${parts[0]}.${parts[1]}`;
  const given = Buffer.from(parts[2]);
  const expected = Buffer.from(mac(secret, payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const issued = Number(parts[1]);
  if (!Number.isFinite(issued) || now - issued > SIGNED_MAX_AGE_MS || issued - now > SIGNED_MAX_AGE_MS) return undefined;
  const ip = Buffer.from(parts[0], 'base64url').toString('utf8');
  return net.isIP(ip) ? ip : undefined;
}
