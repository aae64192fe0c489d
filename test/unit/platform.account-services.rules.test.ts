// Pure rules of the account services: image sniffing, broker URLs, event filters, upload tokens,
// webhook signatures, data-transfer access codes and tokens, delivery backoff.
import { deflateSync } from 'node:zlib';
import { parseBrokerUrl } from '../../subgraphs/platform/exchanges/broker-url.rules.js';
import { sniffImage } from '../../subgraphs/platform/storage/image.rules.js';
import { checkEventPattern, eventMatches } from '../../subgraphs/platform/notifications/event-filter.rules.js';
import { wireBody } from '../../subgraphs/platform/notifications/account-events.js';
import { hashAccessCode, maskEmail, newAccessCode, normaliseAccessCode, signAccessToken, verifyAccessToken } from '../../subgraphs/platform/data-transfers/access.rules.js';
import { signUploadToken, verifyUploadToken } from '../../lib/upload-token.js';
import { signWebhook, verifyWebhook } from '../../lib/webhooks/index.js';
import { retryDelayMs } from '../../lib/jobs/index.js';
import { tinyPng } from '../harness/platform-services.fixtures.js';

describe('sniffImage', () => {
  test('PNG: size from IHDR', () => {
    expect(sniffImage(tinyPng(640, 480))).toEqual({ format: 'png', contentType: 'image/png', width: 640, height: 480 });
  });

  test('JPEG: size from the first SOF segment, after APP segments', () => {
    const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    const sof0 = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x01, 0x90, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, Buffer.from([0xff, 0xd9])]);
    expect(sniffImage(jpeg)).toEqual({ format: 'jpeg', contentType: 'image/jpeg', width: 400, height: 300 });
  });

  test('GIF87a / GIF89a', () => {
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([0x20, 0x00, 0x10, 0x00]), Buffer.alloc(8)]);
    expect(sniffImage(gif)).toEqual({ format: 'gif', contentType: 'image/gif', width: 32, height: 16 });
  });

  test('WebP: lossy (VP8), lossless (VP8L) and extended (VP8X)', () => {
    const riff = (chunk: string, body: Buffer) => Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP'), Buffer.from(chunk), Buffer.alloc(4), body]);
    const vp8 = Buffer.alloc(10);
    vp8.set([0x9d, 0x01, 0x2a], 3);
    vp8.writeUInt16LE(120, 6);
    vp8.writeUInt16LE(60, 8);
    expect(sniffImage(riff('VP8 ', vp8))).toMatchObject({ format: 'webp', width: 120, height: 60 });
    const vp8l = Buffer.alloc(10);
    vp8l[0] = 0x2f;
    vp8l.writeUInt32LE((99 & 0x3fff) | ((49 & 0x3fff) << 14), 1);
    expect(sniffImage(riff('VP8L', vp8l))).toMatchObject({ format: 'webp', width: 100, height: 50 });
    const vp8x = Buffer.alloc(10);
    vp8x.writeUIntLE(1999, 4, 3);
    vp8x.writeUIntLE(999, 7, 3);
    expect(sniffImage(riff('VP8X', vp8x))).toMatchObject({ format: 'webp', width: 2000, height: 1000 });
  });

  test.each([
    ['text', Buffer.from('hello, not an image at all, definitely')],
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>')],
    ['a truncated PNG', tinyPng().subarray(0, 20)],
    ['a PNG of zero width', (() => { const p = tinyPng(); p.writeUInt32BE(0, 16); return p; })()],
    ['a JPEG without a frame', Buffer.from([0xff, 0xd8, 0xff, 0xd9, 0, 0])],
    ['empty', Buffer.alloc(0)],
    ['PDF', Buffer.concat([Buffer.from('%PDF-1.7\n'), deflateSync(Buffer.alloc(100))])],
  ])('%s is not an image', (_name, bytes) => {
    expect(sniffImage(bytes)).toBeNull();
  });
});

describe('parseBrokerUrl', () => {
  test('user info comes out, percent-decoded; the URL is kept without it', () => {
    expect(parseBrokerUrl('rabbitmq', 'amqp://u%40x:p%3Ass@mq.example.com:5672/v')).toEqual({
      url: 'amqp://mq.example.com:5672/v',
      scheme: 'amqp',
      hosts: ['mq.example.com:5672'],
      username: 'u@x',
      password: 'p:ss',
    });
  });
  test('several hosts only for kafka and nats', () => {
    expect(parseBrokerUrl('kafka', 'kafka://a:9092,b:9092')).toMatchObject({ hosts: ['a:9092', 'b:9092'] });
    expect(parseBrokerUrl('redis', 'redis://a:6379,b:6379')).toMatch(/one host/);
  });
  test('wrong scheme, bad port, junk', () => {
    expect(parseBrokerUrl('sqs', 'amqp://x')).toMatch(/https/);
    expect(parseBrokerUrl('nats', 'nats://h:70000')).toMatch(/host\[:port\]/);
    expect(parseBrokerUrl('redis', 'just words')).toMatch(/must look like/);
  });
});

describe('event filters', () => {
  test('patterns', () => {
    expect(eventMatches(['*'], 'key.created')).toBe(true);
    expect(eventMatches(['key.*'], 'key.deleted')).toBe(true);
    expect(eventMatches(['key.*'], 'keys.deleted')).toBe(false);
    expect(eventMatches(['account.created'], 'account.updated')).toBe(false);
    expect(checkEventPattern('data_transfer.*')).toBeNull();
    expect(checkEventPattern('nope.*')).toMatch(/no event family/);
    expect(checkEventPattern('key.exploded')).toMatch(/not an account event/);
  });
});

describe('upload tokens', () => {
  const grant = { uploadId: 'upl_1', purpose: 'logo', owner: { platform: 'plat_1', account: 'acct_1' }, key: 'acct_1/logos/uploads/upl_1', maxBytes: 100, expiresAt: Math.floor(Date.now() / 1000) + 60 };
  test('round trip; another secret or an edit fails; expiry', () => {
    const token = signUploadToken(grant, 's');
    expect(verifyUploadToken(token, 's')).toEqual({ ok: true, grant });
    expect(verifyUploadToken(token, 'other')).toMatchObject({ ok: false, code: 'UPLOAD_SIGNATURE_INVALID' });
    const [payload, mac] = token.split('.');
    const edited = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), m: 10 ** 9 })).toString('base64url');
    expect(verifyUploadToken(`${edited}.${mac}`, 's')).toMatchObject({ ok: false, code: 'UPLOAD_SIGNATURE_INVALID' });
    // base64url's spare bits in the last character must not give a second valid spelling
    const last = mac.at(-1)!;
    const sibling = 'AEIMQUYcgkosw048'.includes(last) ? String.fromCharCode(last.charCodeAt(0) + 1) : last;
    if (sibling !== last) expect(verifyUploadToken(`${payload}.${mac.slice(0, -1)}${sibling}`, 's').ok).toBe(false);
    expect(verifyUploadToken(token, 's', (grant.expiresAt + 1) * 1000)).toMatchObject({ ok: false, code: 'UPLOAD_EXPIRED' });
  });
});

describe('webhook signatures', () => {
  test('t=<unix>,v1=<hex>: verifies, rejects other secrets, other bodies and old timestamps', () => {
    const body = '{"event":"key.created"}';
    const header = signWebhook('whsec_x', body, 1_700_000_000);
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook('whsec_x', body, header, { nowSec: 1_700_000_100 })).toEqual({ ok: true, timestamp: 1_700_000_000 });
    expect(verifyWebhook('whsec_y', body, header, { nowSec: 1_700_000_100 })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook('whsec_x', body + ' ', header, { nowSec: 1_700_000_100 })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook('whsec_x', body, header, { nowSec: 1_700_001_000 })).toEqual({ ok: false, reason: 'too_old' });
    expect(verifyWebhook('whsec_x', body, 'garbage')).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('data-transfer access', () => {
  test('codes: 8 characters without look-alikes; typing variants normalise', () => {
    for (let i = 0; i < 50; i++) expect(newAccessCode()).toMatch(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/);
    expect(normaliseAccessCode('abcd efgh')).toBe('ABCD-EFGH');
    expect(hashAccessCode('abcd-efgh')).toBe(hashAccessCode('ABCDEFGH'));
  });
  test('tokens bind the transfer and expire', () => {
    const token = signAccessToken({ transferId: 'dtr_1', codeId: 'dtc_1', expiresAt: Date.now() + 1000 }, 's');
    expect(verifyAccessToken(token, 's')).toMatchObject({ transferId: 'dtr_1', codeId: 'dtc_1' });
    expect(verifyAccessToken(token, 'other')).toBeNull();
    expect(verifyAccessToken(token, 's', Date.now() + 2000)).toBeNull();
    expect(verifyAccessToken('dtt_x.y', 's')).toBeNull();
  });
  test('maskEmail', () => {
    expect(maskEmail('investor@fund.example.com')).toBe('i•••@fund.example.com');
  });
});

describe('webhook delivery', () => {
  test('backoff of the job queue, as the delivery kind sets it, doubles from the base, ±20 % jitter, capped at an hour', () => {
    const b = { baseMs: 10_000, maxMs: 3_600_000 };
    expect(retryDelayMs(1, b, 0)).toBe(10_000);
    expect(retryDelayMs(2, b, 0)).toBe(20_000);
    expect(retryDelayMs(4, b, 0)).toBe(80_000);
    expect(retryDelayMs(1, b, -1)).toBe(8_000);
    expect(retryDelayMs(1, b, 1)).toBe(12_000);
    expect(retryDelayMs(30, b, 0)).toBe(3_600_000);
  });
  test('the wire body is snake_case', () => {
    expect(wireBody({ id: 'evt_1', event: 'key.created', occurredAt: 'T', platformId: 'p', accountId: 'a', data: { x: 1 } })).toEqual({
      id: 'evt_1',
      event: 'key.created',
      occurred_at: 'T',
      platform_id: 'p',
      account_id: 'a',
      data: { x: 1 },
    });
  });
});
