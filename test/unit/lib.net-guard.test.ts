// lib/net-guard.ts: private, loopback and link-local targets refused on the resolved address.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blockedReason, checkFetchTarget, NetGuardError, resolvePublic } from '../../lib/net-guard.js';
import { postWebhook } from '../../subgraphs/platform/notifications/webhook-sender.js';

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
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'private (unique local)'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'NAT64'],
  ])('%s → %s', (ip, reason) => {
    expect(blockedReason(ip)).toBe(reason);
  });

  test.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) => {
    expect(blockedReason(ip)).toBeNull();
  });
});

describe('resolvePublic / checkFetchTarget', () => {
  const fake = (addrs: string[]) => async () => addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  test('a hostname resolving to a private address is refused (DNS, not the text, decides)', async () => {
    await expect(resolvePublic('innocent.example.com', { allowPrivate: false, resolve: fake(['10.0.0.5']) })).rejects.toThrow(NetGuardError);
    await expect(checkFetchTarget('https://innocent.example.com/hook', { allowPrivate: false, resolve: fake(['169.254.169.254']) })).rejects.toThrow(/link-local/);
  });

  test('any private address among several refuses the host', async () => {
    await expect(resolvePublic('mixed.example.com', { allowPrivate: false, resolve: fake(['93.184.216.34', '127.0.0.1']) })).rejects.toThrow(/loopback/);
  });

  test('public addresses pass; ALLOW_PRIVATE_NETWORK_FETCH lets private ones through', async () => {
    await expect(resolvePublic('ok.example.com', { allowPrivate: false, resolve: fake(['93.184.216.34']) })).resolves.toHaveLength(1);
    await expect(resolvePublic('lan.example.com', { allowPrivate: true, resolve: fake(['192.168.0.2']) })).resolves.toHaveLength(1);
  });

  test('IP literals (v4 and bracketed v6) are checked without DNS', async () => {
    await expect(checkFetchTarget('http://127.0.0.1:8080/', { allowPrivate: false })).rejects.toThrow(/loopback/);
    await expect(checkFetchTarget('http://[::1]/', { allowPrivate: false })).rejects.toThrow(/loopback/);
    await expect(checkFetchTarget('http://localhost/', { allowPrivate: false })).rejects.toThrow(NetGuardError);
    await expect(checkFetchTarget('ftp://8.8.8.8/', { allowPrivate: false })).rejects.toThrow(NetGuardError);
  });
});

describe('postWebhook uses the guard at connect time', () => {
  let url: string;
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.writeHead(204);
    res.end();
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://localhost:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test('a loopback target is refused for good, and never contacted', async () => {
    const r = await postWebhook(url, '{}', {}, { allowPrivate: false });
    expect(r).toMatchObject({ permanent: true, error: expect.stringMatching(/loopback/) });
    expect(r.status).toBeUndefined();
    expect(hits).toBe(0);
  });

  test('allowed when private fetches are allowed', async () => {
    const r = await postWebhook(url, '{}', {}, { allowPrivate: true });
    expect(r).toMatchObject({ status: 204, permanent: false });
    expect(hits).toBe(1);
  });
});
