// The pieces of an upload that need no stack: media types from magic bytes, the UploadInspector
// (size cap while streaming, type from the first bytes, SHA-256 on the way), the route-purpose
// check of presigned tokens, and the bridge's receipt over a stored object.
import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../lib/errors.js';
import { MEDIA_TYPES, sniffMediaType, type MediaType } from '../../lib/media-type.js';
import { signUploadReceipt, signUploadToken, verifyUploadReceipt } from '../../lib/upload-token.js';
import { authorizeUpload } from '../../rest-bridge/upload.js';
import { UploadInspector } from '../../rest-bridge/upload-stream.js';
import { tinyPng } from '../harness/platform-services.fixtures.js';

describe('sniffMediaType', () => {
  test.each([
    ['image/png', tinyPng()],
    ['image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])],
    ['image/gif', Buffer.from('GIF89a\x01\x00\x01\x00')],
    ['image/webp', Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')])],
  ])('%s', (type, head) => expect(sniffMediaType(head)).toBe(type));

  test.each([
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['HTML', Buffer.from('<!doctype html><script>')],
    ['a truncated PNG signature', tinyPng().subarray(0, 5)],
    ['nothing', Buffer.alloc(0)],
  ])('%s is none of them', (_name, head) => expect(sniffMediaType(head)).toBeNull());
});

/** Run `chunks` through an inspector; what came out, or the error. */
async function inspect(chunks: Buffer[], limit = 1000, types: readonly MediaType[] = MEDIA_TYPES) {
  const inspector = new UploadInspector(limit, types);
  const out: Buffer[] = [];
  const sink = new Writable({
    write(c: Buffer, _e, done) {
      out.push(c);
      done();
    },
  });
  try {
    await pipeline(Readable.from(chunks), inspector, sink);
  } catch (e) {
    return { error: e as DomainError, out: Buffer.concat(out) };
  }
  return { inspector, type: await inspector.type, out: Buffer.concat(out) };
}

describe('UploadInspector', () => {
  test('passes the bytes through whole, with their type and SHA-256, however they are split', async () => {
    const png = Buffer.concat([tinyPng(), Buffer.alloc(300, 1)]);
    const split = [png.subarray(0, 3), png.subarray(3, 10), png.subarray(10)];
    const r = await inspect(split);
    expect(r.type).toBe('image/png');
    expect(r.out.equals(png)).toBe(true);
    expect(r.inspector!.size).toBe(png.length);
    expect(r.inspector!.digest()).toBe(createHash('sha256').update(png).digest('hex'));
  });

  test('past the cap: 413, even when the type was fine', async () => {
    const r = await inspect([tinyPng(), Buffer.alloc(2000)], 1000);
    expect(r.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });

  test('a type the route does not take: 415 naming the allowed ones, and nothing passed on', async () => {
    const r = await inspect([Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')]);
    expect(r.error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415, opts: { parameter: 'body' } });
    expect(r.error!.message).toContain('image/png');
    expect(r.out.length).toBe(0);
    expect((await inspect([tinyPng()], 1000, ['image/jpeg'])).error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  test('a body shorter than the sniffed head is decided at its end; an empty one is 400', async () => {
    expect((await inspect([Buffer.from([0xff, 0xd8, 0xff])])).type).toBe('image/jpeg');
    expect((await inspect([Buffer.from('hi')])).error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect((await inspect([])).error).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
  });
});

describe('presigned token and receipt', () => {
  const grant = { uploadId: 'upl_1', purpose: 'logo', owner: { account: 'acct_1' }, key: 'acct_1/logos/uploads/upl_1', maxBytes: 100, expiresAt: Math.floor(Date.now() / 1000) + 60 };
  const spec = { purpose: 'logo', maxBytes: 1000, types: MEDIA_TYPES };

  test('a route takes only grants of its own purpose', () => {
    expect(authorizeUpload(spec, signUploadToken(grant, 's'), 's')).toEqual(grant);
    expect(() => authorizeUpload({ ...spec, purpose: 'product_image' }, signUploadToken(grant, 's'), 's')).toThrow(expect.objectContaining({ code: 'UPLOAD_SIGNATURE_INVALID' }));
    expect(() => authorizeUpload(spec, undefined, 's')).toThrow(expect.objectContaining({ code: 'UPLOAD_SIGNATURE_INVALID' }));
    expect(() => authorizeUpload(spec, signUploadToken({ ...grant, expiresAt: 1 }, 's'), 's')).toThrow(expect.objectContaining({ code: 'UPLOAD_EXPIRED', status: 410 }));
  });

  test('the receipt binds the upload id and every field of the stored object', () => {
    const stored = { key: grant.key, size: 42, contentType: 'image/png', sha256: 'ab'.repeat(32) };
    const receipt = signUploadReceipt('upl_1', stored, 's');
    expect(verifyUploadReceipt('upl_1', stored, receipt, 's')).toBe(true);
    expect(verifyUploadReceipt('upl_1', stored, receipt, 'other')).toBe(false);
    expect(verifyUploadReceipt('upl_2', stored, receipt, 's')).toBe(false);
    for (const patch of [{ key: 'acct_2/x' }, { size: 43 }, { contentType: 'image/gif' }, { sha256: 'cd'.repeat(32) }]) {
      expect(verifyUploadReceipt('upl_1', { ...stored, ...patch }, receipt, 's')).toBe(false);
    }
  });
});
