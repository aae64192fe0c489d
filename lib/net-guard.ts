// The URL guard: every server-side fetch of a client-given URL (webhook targets, image URLs,
// import URLs) goes through guardedFetch(), so it cannot reach the machine itself, the private
// network behind it or a cloud metadata service (SSRF). CONTRACT: loopback, private and link-local
// targets are refused unless ALLOW_PRIVATE_NETWORK_FETCH=1.
//
// - The check runs on addresses, never on the hostname text: an IP literal is checked as written
//   (the WHATWG URL parser has already turned decimal, hex and octal IPv4 forms into dotted quads),
//   a name is resolved and EVERY address it resolves to is checked; one refused address refuses
//   the host. Node skips `lookup` for IP-literal hosts, which is why literals are checked here
//   explicitly instead of relying on the socket's lookup.
// - The connection goes to the addresses that were checked (they are handed to http.request as
//   its `lookup` answer), so a DNS answer that changes between check and connect (rebinding)
//   cannot slip through.
// - IPv6 forms that carry an IPv4 address (v4-mapped, v4-compatible, SIIT, 6to4) are checked as
//   the IPv4 address they carry; NAT64 and Teredo prefixes are refused outright.
// - Redirects are followed only when the caller allows them (maxRedirects), each hop re-checked
//   like the first; the whole exchange has a deadline and the response body a size cap.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

const V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
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
  ['64:ff9b:1::', 48, 'NAT64'],
  ['100::', 64, 'discard'],
  ['2001::', 32, 'Teredo'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'private (unique local)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];
const RANGES = [...V4.map(([a, b, r]) => ({ family: 'ipv4' as const, a, b, r })), ...V6.map(([a, b, r]) => ({ family: 'ipv6' as const, a, b, r }))].map((x) => {
  const list = new net.BlockList();
  list.addSubnet(x.a, x.b, x.family);
  return { list, family: x.family, reason: x.r };
});

/** The eight 16-bit groups of an IPv6 address (with or without a trailing dotted quad). */
function v6Groups(ip: string): number[] | null {
  let text = ip.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const p = quad[1].split('.').map(Number);
    text = text.slice(0, -quad[1].length) + `${((p[0] << 8) | p[1]).toString(16)}:${((p[2] << 8) | p[3]).toString(16)}`;
  }
  const [head, tail, extra] = text.split('::');
  if (extra !== undefined) return null;
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  if (fill < 0 || (tail === undefined && h.length !== 8)) return null;
  const groups = [...h, ...Array<string>(fill).fill('0'), ...t].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, SIIT, 6to4), if any. */
export function embeddedIPv4(ip: string): string | null {
  const g = v6Groups(ip);
  if (!g) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return v4(g[6], g[7]); // ::ffff:a.b.c.d (v4-mapped)
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6], g[7]); // ::ffff:0:a.b.c.d (SIIT)
  if (zero(0, 6) && (g[6] !== 0 || g[7] > 1)) return v4(g[6], g[7]); // ::a.b.c.d (v4-compatible)
  if (g[0] === 0x2002) return v4(g[1], g[2]); // 2002:aabb:ccdd::/48 (6to4)
  return null;
}

/** Why `ip` may not be fetched (e.g. 'loopback'), or null when it is a public address. */
export function blockedReason(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, '');
  const family = net.isIP(bare);
  if (!family) return 'not an IP address';
  if (family === 6) {
    const carried = embeddedIPv4(bare);
    if (carried) return blockedReason(carried);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const r of RANGES) if (r.family === type && r.list.check(bare, type)) return r.reason;
  return null;
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

export interface GuardOptions {
  /** ALLOW_PRIVATE_NETWORK_FETCH: every address passes */
  allowPrivate: boolean;
  /** name resolution (tests give a fixed answer); the system resolver by default */
  resolve?: Resolve;
  /** addresses treated as public although their range is not (a test's own server); never set from configuration */
  trust?: (ip: string) => boolean;
}

/** Resolve `hostname` (or take the IP literal as is) and refuse it when any address is private. */
export async function resolvePublic(hostname: string, opts: GuardOptions): Promise<dns.LookupAddress[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const literal = net.isIP(bare);
  let addresses: dns.LookupAddress[];
  if (literal) addresses = [{ address: bare, family: literal }];
  else {
    try {
      addresses = await (opts.resolve ?? systemResolve)(bare);
    } catch (e) {
      throw new NetGuardError(hostname, `unresolvable (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  if (!addresses.length) throw new NetGuardError(hostname, 'unresolvable');
  if (!opts.allowPrivate) {
    for (const a of addresses) {
      const reason = opts.trust?.(a.address) ? null : blockedReason(a.address);
      if (reason) throw new NetGuardError(hostname, reason);
    }
  }
  return addresses;
}

/** Validate a client-given URL before storing it: http(s) and, unless allowed, a public host. */
export async function checkFetchTarget(raw: string, opts: GuardOptions): Promise<URL> {
  const u = new URL(raw);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new NetGuardError(u.host, 'non-http');
  await resolvePublic(u.hostname, opts);
  return u;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A `lookup` for http.request / net.connect that answers with addresses already checked. */
function pinnedLookup(addresses: dns.LookupAddress[]) {
  return (_hostname: string, options: dns.LookupOptions | number | LookupCallback, callback?: LookupCallback): void => {
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
    const all = typeof options === 'object' && options !== null && options.all === true;
    if (all) cb(null, addresses);
    else cb(null, addresses[0].address, addresses[0].family);
  };
}

export interface GuardedFetchOptions extends GuardOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** deadline of the whole exchange, every hop included (default 10 s) */
  timeoutMs?: number;
  /** response bytes kept; a longer body is cut there, the connection closed and `truncated` set (default 1 MiB) */
  maxBytes?: number;
  /** redirects followed, each hop re-checked (default 0: a 3xx is returned as the response) */
  maxRedirects?: number;
}

export interface GuardedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
  /** the URL that answered (after redirects) */
  url: string;
}

/** A fetch that failed without a response: network error, deadline, too many redirects. */
export class FetchError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Fetch `url` through the guard. Throws NetGuardError when a hop's target is refused (retrying
 * cannot help) and FetchError when no response came; any HTTP status is a response.
 */
export async function guardedFetch(url: string, opts: GuardedFetchOptions): Promise<GuardedResponse> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new FetchError('invalid URL', 'EINVALIDURL');
  }
  let method = (opts.method ?? 'GET').toUpperCase();
  let body = opts.body;
  let headers = { ...(opts.headers ?? {}) };
  for (let hop = 0; ; hop++) {
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new NetGuardError(target.host, `non-http (${target.protocol})`);
    const addresses = await resolvePublic(target.hostname, opts);
    const res = await requestOnce(target, addresses, { method, headers, body, deadline, maxBytes: opts.maxBytes ?? 1024 * 1024 });
    const location = res.headers.location;
    if (!REDIRECTS.has(res.status) || !location || (opts.maxRedirects ?? 0) === 0) return res;
    if (hop >= (opts.maxRedirects ?? 0)) throw new FetchError(`more than ${opts.maxRedirects} redirects`, 'ETOOMANYREDIRECTS');
    const next = new URL(location, target);
    if (next.origin !== target.origin) headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.includes(k.toLowerCase())));
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !['content-type', 'content-length'].includes(k.toLowerCase())));
    }
    target = next;
  }
}

function requestOnce(
  u: URL,
  addresses: dns.LookupAddress[],
  o: { method: string; headers: Record<string, string>; body?: string | Buffer; deadline: number; maxBytes: number },
): Promise<GuardedResponse> {
  const left = o.deadline - Date.now();
  if (left <= 0) return Promise.reject(new FetchError('timed out', 'ETIMEDOUT'));
  const mod = u.protocol === 'https:' ? https : http;
  const headers = o.body === undefined ? o.headers : { ...o.headers, 'content-length': String(Buffer.byteLength(o.body)) };
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const req = mod.request(u, { method: o.method, headers, lookup: pinnedLookup(addresses) as never, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (truncated: boolean) =>
        finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated, url: u.toString() }));
      res.on('data', (c: Buffer) => {
        if (size + c.length > o.maxBytes) {
          chunks.push(c.subarray(0, o.maxBytes - size));
          done(true);
          req.destroy();
          return;
        }
        chunks.push(c);
        size += c.length;
      });
      res.on('end', () => done(false));
      res.on('error', (e) => finish(() => reject(new FetchError(e.message, 'ERESPONSE'))));
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish(() => reject(new FetchError(`timed out after ${Math.round(left)} ms`, 'ETIMEDOUT')));
    }, left);
    req.on('error', (e: NodeJS.ErrnoException) => finish(() => reject(e instanceof NetGuardError ? e : new FetchError(e.message, e.code ?? 'EREQUEST'))));
    req.end(o.body);
  });
}
