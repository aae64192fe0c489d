// Fixtures of the account-services and data-transfer routes for the shared security suite
// (security.ts): resources their path params name, and the smallest valid body of each data.type.
import { deflateSync } from 'node:zlib';
import type { Route } from '../../rest-bridge/types.js';
import { jsonApi, rest, uniq, type HttpResult } from './client.js';
import type { SecTenant } from './security.js';

/** A valid w×h RGB PNG, built by hand (signature, IHDR, one IDAT, IEND, CRCs). */
export function tinyPng(width = 2, height = 2): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  const rows = Buffer.concat(Array.from({ length: height }, (_, y) => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, y * 40)])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

function expect2xx(r: HttpResult, what: string): void {
  if (r.status < 200 || r.status > 299) throw new Error(`${what}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
}

/** PUT `bytes` to a presigned upload URL (absolute, as the API returns it). */
export async function putUpload(url: string, bytes: Buffer, contentType = 'application/octet-stream'): Promise<HttpResult> {
  const r = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': contentType } });
  const text = await r.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: r.status, body, headers: r.headers };
}

/** Presign and upload a tiny PNG for `t`'s account; returns the upload id. */
export async function uploadLogo(t: { accountUrlId: string; platformHeaders: Record<string, string> }, bytes = tinyPng()): Promise<string> {
  const p = await rest('POST', `/accounts/${t.accountUrlId}/logo/presign`, { headers: t.platformHeaders });
  expect2xx(p, 'presign');
  expect2xx(await putUpload(p.body.data.attributes.upload_url, bytes, 'image/png'), 'upload');
  return p.body.data.id;
}

export const SERVICE_PARAM_FIXTURES: Record<string, { value(t: SecTenant): string; foreignCode: string | null }> = {
  credential_id: { value: (t) => t.credentialId!, foreignCode: 'CREDENTIAL_NOT_FOUND' },
  exchange_id: { value: (t) => t.exchangeId!, foreignCode: 'EXCHANGE_NOT_FOUND' },
  transfer_code: { value: (t) => t.transferCode!, foreignCode: 'DATA_TRANSFER_NOT_FOUND' },
};

export const SERVICE_BODIES: Record<string, (t: SecTenant) => Record<string, unknown>> = {
  credentials: () => ({ name: uniq('cred '), provider: 'stripe', secret: `rk_fixture_${uniq('')}` }),
  exchanges: () => ({ name: uniq('broker '), broker_type: 'rabbitmq', url: 'amqp://guest:guest-password@rabbit.example.com:5672/vhost' }),
  account_details: () => ({ legal_name: 'Fixture Inc.', address: { country: 'DE' } }),
  logos: (t) => ({ upload_id: t.logoUploadId }),
  notification_settings: () => ({ events: ['*'] }),
  data_transfers: () => ({ title: 'Fixture transfer', recipient_email: 'recipient@example.com', agreement: 'Fixture agreement' }),
};

/** Create, once per tenant, what the route's params and body refer to. */
export async function ensureServiceResources(route: Route, t: SecTenant): Promise<void> {
  const auth = { headers: t.platformHeaders };
  if (route.path.includes(':credential_id') && !t.credentialId) {
    const r = await rest('POST', `/accounts/${t.accountUrlId}/keys`, { ...auth, body: jsonApi('credentials', SERVICE_BODIES.credentials(t)) });
    expect2xx(r, 'fixture credential');
    t.credentialId = r.body.data.id;
  }
  if (route.path.includes(':exchange_id') && !t.exchangeId) {
    const r = await rest('POST', `/accounts/${t.accountUrlId}/exchange`, { ...auth, body: jsonApi('exchanges', SERVICE_BODIES.exchanges(t)) });
    expect2xx(r, 'fixture exchange');
    t.exchangeId = r.body.data.id;
  }
  if (route.path.includes(':transfer_code') && !t.transferCode) {
    const r = await rest('POST', `/accounts/${t.accountUrlId}/data_transfers`, { ...auth, body: jsonApi('data_transfers', SERVICE_BODIES.data_transfers(t)) });
    expect2xx(r, 'fixture data transfer');
    t.transferCode = r.body.data.attributes.code;
  }
  if (route.body?.type === 'logos' && !t.logoUploadId) t.logoUploadId = await uploadLogo(t);
}

/** Data-transfer admin rows need platform:admin (the security suite's scope table). */
export function serviceScope(route: Route): string | null {
  return route.path.startsWith('/accounts/:url_id/data_transfers') ? 'platform:admin' : null;
}
