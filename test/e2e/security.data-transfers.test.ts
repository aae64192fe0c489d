// Limits of the public data-transfer paths (docs/security.md, "Limits"): per client address, per
// transfer code, and failed code guesses per address (past their limit the address is refused
// before any lookup, a valid code included). Requests come through the tests' trusted proxy
// (127.0.0.2, TRUSTED_PROXIES) with X-Forwarded-For naming a client address of the test's own, so
// the counters are the test's alone.
import { request } from 'node:http';
import { createTenant, jsonApi, rest, stack, type Tenant } from '../harness/client.js';
import { awaitRoomInRateWindow, expectServiceError, randomBase62 } from '../harness/security.js';

const P = 'platform';

/** GET a public path as client `address` (via the trusted proxy). */
function getAs(address: string, path: string): Promise<{ status: number; body: any; headers: Headers }> {
  return new Promise((resolve, reject) => {
    const req = request(`${stack().rest}${path}`, { method: 'GET', localAddress: '127.0.0.2', headers: { 'x-forwarded-for': address } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'), headers: h });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A fresh client address (198.18.0.0/15: benchmarking addresses, never routed). */
const block = Math.floor(Math.random() * 256);
let n = 0;
const address = () => `198.18.${block}.${++n}`;

let t: Tenant;
async function newTransfer(): Promise<string> {
  const r = await rest('POST', `/accounts/${t.accountUrlId}/data_transfers`, {
    body: jsonApi('data_transfers', { title: 'Limits', recipient_email: 'recipient@example.com', agreement: 'Terms' }),
    headers: t.platformHeaders,
  });
  expect(r.status).toBe(201);
  return r.body.data.attributes.code;
}
const unknownCode = () => `dt_${randomBase62(24)}`;

beforeAll(async () => {
  t = await createTenant();
});

test('failed code guesses are counted per address: past 20 a minute the address is refused, a valid code included; others are not', async () => {
  const code = await newTransfer();
  const guesser = address();
  await awaitRoomInRateWindow(20_000);
  for (let i = 0; i < 20; i++) expectServiceError(await getAs(guesser, `/data_transfers/${unknownCode()}`), P, 404, 'DATA_TRANSFER_NOT_FOUND');
  const refused = await getAs(guesser, `/data_transfers/${unknownCode()}`);
  expectServiceError(refused, P, 429, 'RATE_LIMITED');
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  // refused before any lookup: a real code gets the same answer from that address
  expectServiceError(await getAs(guesser, `/data_transfers/${code}`), P, 429, 'RATE_LIMITED');
  expect((await getAs(address(), `/data_transfers/${code}`)).status).toBe(200);
  // a malformed code costs no lookup and is no guess
  expectServiceError(await getAs(address(), '/data_transfers/not-a-code'), P, 404, 'DATA_TRANSFER_NOT_FOUND');
});

test('one transfer code takes at most 60 requests a minute, whatever the address', async () => {
  const code = await newTransfer();
  await awaitRoomInRateWindow(20_000);
  for (let i = 0; i < 60; i++) expect((await getAs(address(), `/data_transfers/${code}`)).status).toBe(200);
  expectServiceError(await getAs(address(), `/data_transfers/${code}`), P, 429, 'RATE_LIMITED');
  // another transfer is another budget
  expect((await getAs(address(), `/data_transfers/${await newTransfer()}`)).status).toBe(200);
});

test('one client address takes at most 120 public requests a minute', async () => {
  const codes = [await newTransfer(), await newTransfer(), await newTransfer()];
  const client = address();
  await awaitRoomInRateWindow(25_000);
  for (let i = 0; i < 120; i++) expect((await getAs(client, `/data_transfers/${codes[i % 3]}`)).status).toBe(200);
  expectServiceError(await getAs(client, `/data_transfers/${await newTransfer()}`), P, 429, 'RATE_LIMITED');
  expect((await getAs(address(), `/data_transfers/${codes[0]}`)).status).toBe(200);
});
