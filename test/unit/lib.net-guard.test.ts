// lib/net-guard.ts with ALLOW_PRIVATE_NETWORK_FETCH unset: IP literals in every spelling and every
// resolved address are checked, IPv4 and IPv6; redirects are re-checked per hop and capped; the
// response has a size cap and the exchange a deadline. Real servers on 127.0.0.1 and ::1 count
// the requests that reach them: a refused fetch must never connect.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../lib/config.js';
import { blockedReason, checkFetchTarget, embeddedIPv4, FetchError, guardedFetch, NetGuardError, resolvePublic } from '../../lib/net-guard.js';

delete process.env.ALLOW_PRIVATE_NETWORK_FETCH;
const allowPrivate = loadConfig({}).allowPrivateNetworkFetch;

describe('blockedReason', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared address space (CGNAT)'],
    ['100.100.100.200', 'shared address space (CGNAT)'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd12:3456::1', 'private (unique local)'],
    ['fd00:ec2::254', 'private (unique local)'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['0:0:0:0:0:ffff:10.0.0.1', 'private'],
    ['::ffff:0:a00:1', 'private'],
    ['::7f00:1', 'loopback'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:a9fe:a9fe::', 'link-local'],
    ['64:ff9b::a00:1', 'NAT64'],
    ['2001:0:4136:e378::1', 'Teredo'],
  ])('%s → %s', (ip, reason) => {
    expect(blockedReason(ip)).toBe(reason);
  });

  test.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808', '2002:808:808::1'])('%s is public', (ip) => {
    expect(blockedReason(ip)).toBeNull();
  });

  test('embedded IPv4 forms', () => {
    expect(embeddedIPv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIPv4('::1')).toBeNull();
    expect(embeddedIPv4('2606:4700::1111')).toBeNull();
  });
});

describe('resolvePublic / checkFetchTarget', () => {
  const fake = (addrs: string[]) => async () => addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  test('a hostname resolving to a private address is refused (DNS, not the text, decides)', async () => {
    await expect(resolvePublic('innocent.example.com', { allowPrivate, resolve: fake(['10.0.0.5']) })).rejects.toThrow(NetGuardError);
    await expect(checkFetchTarget('https://innocent.example.com/hook', { allowPrivate, resolve: fake(['169.254.169.254']) })).rejects.toThrow(/link-local/);
    await expect(resolvePublic('v6.example.com', { allowPrivate, resolve: fake(['::ffff:7f00:1']) })).rejects.toThrow(/loopback/);
  });

  test('any private address among several refuses the host', async () => {
    await expect(resolvePublic('mixed.example.com', { allowPrivate, resolve: fake(['93.184.216.34', '127.0.0.1']) })).rejects.toThrow(/loopback/);
    await expect(resolvePublic('mixed6.example.com', { allowPrivate, resolve: fake(['2606:4700:4700::1111', 'fe80::1']) })).rejects.toThrow(/link-local/);
  });

  test('public addresses pass; ALLOW_PRIVATE_NETWORK_FETCH lets private ones through', async () => {
    expect(allowPrivate).toBe(false);
    await expect(resolvePublic('ok.example.com', { allowPrivate, resolve: fake(['93.184.216.34']) })).resolves.toHaveLength(1);
    await expect(resolvePublic('lan.example.com', { allowPrivate: loadConfig({ ALLOW_PRIVATE_NETWORK_FETCH: '1' }).allowPrivateNetworkFetch, resolve: fake(['192.168.0.2']) })).resolves.toHaveLength(1);
  });

  test('IP literals (v4 and bracketed v6) are checked without DNS', async () => {
    await expect(checkFetchTarget('http://127.0.0.1:8080/', { allowPrivate })).rejects.toThrow(/loopback/);
    await expect(checkFetchTarget('http://[::1]/', { allowPrivate })).rejects.toThrow(/loopback/);
    await expect(checkFetchTarget('http://localhost/', { allowPrivate })).rejects.toThrow(NetGuardError);
    await expect(checkFetchTarget('ftp://8.8.8.8/', { allowPrivate })).rejects.toThrow(NetGuardError);
    await expect(checkFetchTarget('http://name.invalid/', { allowPrivate })).rejects.toThrow(/unresolvable/);
  });
});

/** A server that counts its requests; `handle` answers them. */
async function server(host: string, handle: (path: string, res: import('node:http').ServerResponse) => void) {
  const s: Server & { hits: number; base: string } = Object.assign(
    createServer((req, res) => {
      s.hits++;
      req.resume();
      handle(req.url ?? '/', res);
    }),
    { hits: 0, base: '' },
  );
  await new Promise<void>((r) => s.listen(0, host, () => r()));
  const { port } = s.address() as AddressInfo;
  s.base = host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
  return s;
}
const close = (s: Server) =>
  new Promise<void>((r) => {
    s.close(() => r());
    s.closeAllConnections();
  });

describe('guardedFetch', () => {
  let v4: Awaited<ReturnType<typeof server>>;
  let v6: Awaited<ReturnType<typeof server>>;
  /** 127.0.0.2 plays a public server (trusted by these tests only) that redirects wherever it is told */
  let pub: Awaited<ReturnType<typeof server>>;
  const trust = (ip: string) => ip === '127.0.0.2';
  beforeAll(async () => {
    v4 = await server('127.0.0.1', (_p, res) => res.writeHead(200).end('inside'));
    v6 = await server('::1', (_p, res) => res.writeHead(200).end('inside v6'));
    pub = await server('127.0.0.2', (path, res) => {
      const to = new URL(path, 'http://x').searchParams.get('to');
      if (path.startsWith('/redirect') && to) return void res.writeHead(302, { location: to }).end();
      if (path.startsWith('/loop')) return void res.writeHead(307, { location: '/loop' }).end();
      if (path === '/big') return void res.writeHead(200).end(Buffer.alloc(256 * 1024, 'a'));
      if (path === '/slow') return void setTimeout(() => res.writeHead(200).end('late'), 2000);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('public');
    });
  });
  afterAll(async () => {
    await Promise.all([close(v4), close(v6), close(pub)]);
  });
  beforeEach(() => {
    v4.hits = 0;
    v6.hits = 0;
  });

  const port4 = () => (v4.address() as AddressInfo).port;
  const port6 = () => (v6.address() as AddressInfo).port;

  test.each([
    ['dotted', (p: number) => `http://127.0.0.1:${p}/`],
    ['decimal', (p: number) => `http://2130706433:${p}/`],
    ['hex', (p: number) => `http://0x7f000001:${p}/`],
    ['hex dotted', (p: number) => `http://0x7f.0.0.1:${p}/`],
    ['octal', (p: number) => `http://0177.0.0.1:${p}/`],
    ['short', (p: number) => `http://127.1:${p}/`],
    ['v4-mapped v6', (p: number) => `http://[::ffff:127.0.0.1]:${p}/`],
    ['v4-compatible v6', (p: number) => `http://[::127.0.0.1]:${p}/`],
    ['localhost', (p: number) => `http://localhost:${p}/`],
  ])('a loopback literal (%s) is refused and never contacted', async (_name, make) => {
    await expect(guardedFetch(make(port4()), { allowPrivate })).rejects.toThrow(NetGuardError);
    expect(v4.hits).toBe(0);
  });

  test('the IPv6 loopback ([::1]) is refused and never contacted', async () => {
    await expect(guardedFetch(`http://[::1]:${port6()}/`, { allowPrivate })).rejects.toThrow(/loopback/);
    await expect(guardedFetch(`http://[0:0:0:0:0:0:0:1]:${port6()}/`, { allowPrivate })).rejects.toThrow(/loopback/);
    expect(v6.hits).toBe(0);
  });

  test('cloud metadata and other private literals are refused before any connection', async () => {
    await expect(guardedFetch('http://169.254.169.254/latest/meta-data/', { allowPrivate })).rejects.toThrow(/link-local/);
    await expect(guardedFetch('http://[fd00:ec2::254]/latest/meta-data/', { allowPrivate })).rejects.toThrow(/unique local/);
    await expect(guardedFetch('http://[::ffff:a9fe:a9fe]/', { allowPrivate })).rejects.toThrow(/link-local/);
    await expect(guardedFetch('http://10.0.0.1/', { allowPrivate, timeoutMs: 500 })).rejects.toThrow(/private/);
  });

  test('the same servers answer when private fetches are allowed (the guard, not the network, refused them)', async () => {
    const r4 = await guardedFetch(`http://127.0.0.1:${port4()}/`, { allowPrivate: true });
    const r6 = await guardedFetch(`http://[::1]:${port6()}/`, { allowPrivate: true });
    expect([r4.status, r4.body.toString(), r6.body.toString()]).toEqual([200, 'inside', 'inside v6']);
  });

  test('a trusted public server answers; non-http schemes are refused', async () => {
    const r = await guardedFetch(`${pub.base}/`, { allowPrivate, trust });
    expect([r.status, r.body.toString(), r.truncated]).toEqual([200, 'public', false]);
    await expect(guardedFetch('file:///etc/passwd', { allowPrivate })).rejects.toThrow(NetGuardError);
  });

  test.each([
    ['127.0.0.1', () => `http://127.0.0.1:${port4()}/`],
    ['decimal loopback', () => `http://2130706433:${port4()}/`],
    ['[::1]', () => `http://[::1]:${port6()}/`],
    ['localhost', () => `http://localhost:${port4()}/`],
    ['metadata', () => 'http://169.254.169.254/latest/meta-data/'],
  ])('a redirect to a private address (%s) is refused at that hop', async (_name, to) => {
    await expect(guardedFetch(`${pub.base}/redirect?to=${encodeURIComponent(to())}`, { allowPrivate, trust, maxRedirects: 5 })).rejects.toThrow(NetGuardError);
    expect(v4.hits + v6.hits).toBe(0);
  });

  test('redirects: not followed by default, followed to public hops, capped', async () => {
    const plain = await guardedFetch(`${pub.base}/redirect?to=${encodeURIComponent(`${pub.base}/`)}`, { allowPrivate, trust });
    expect(plain.status).toBe(302);
    const followed = await guardedFetch(`${pub.base}/redirect?to=${encodeURIComponent(`${pub.base}/`)}`, { allowPrivate, trust, maxRedirects: 2 });
    expect([followed.status, followed.body.toString(), followed.url]).toEqual([200, 'public', `${pub.base}/`]);
    await expect(guardedFetch(`${pub.base}/loop`, { allowPrivate, trust, maxRedirects: 3 })).rejects.toMatchObject({ code: 'ETOOMANYREDIRECTS' });
  });

  test('the response is cut at maxBytes and marked truncated', async () => {
    const r = await guardedFetch(`${pub.base}/big`, { allowPrivate, trust, maxBytes: 1000 });
    expect([r.status, r.body.length, r.truncated]).toEqual([200, 1000, true]);
    const whole = await guardedFetch(`${pub.base}/big`, { allowPrivate, trust });
    expect([whole.body.length, whole.truncated]).toEqual([256 * 1024, false]);
  });

  test('the exchange has a deadline', async () => {
    const started = Date.now();
    const e = await guardedFetch(`${pub.base}/slow`, { allowPrivate, trust, timeoutMs: 300 }).catch((x) => x);
    expect(e).toBeInstanceOf(FetchError);
    expect(e.code).toBe('ETIMEDOUT');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  test('a closed port is a FetchError, not a guard refusal', async () => {
    const closed = await server('127.0.0.2', () => undefined);
    const base = closed.base;
    await close(closed);
    await expect(guardedFetch(`${base}/`, { allowPrivate, trust })).rejects.toMatchObject({ name: 'FetchError', code: 'ECONNREFUSED' });
  });
});
