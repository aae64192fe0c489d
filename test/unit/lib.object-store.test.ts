// lib/object-store: one contract, run against the local directory store and against the S3 store
// talking to an S3-compatible server (s3rver) started here: streamed puts (single and multipart),
// stream reads, head, copy, list, delete, refused streams leaving nothing behind, key checks, and
// the start-up check's one-line errors naming the variable.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ConfigError, loadConfig } from '../../lib/config.js';
import { redact } from '../../lib/logger.js';
import { checkObjectKey, LocalObjectStore, openObjectStore, readAll, readObject, type ObjectStore } from '../../lib/object-store.js';
import { S3ObjectStore } from '../../lib/object-store/s3.js';
import { startS3Server, type TestS3 } from '../harness/s3-server.js';

/** A stream of `total` bytes of `fill`, in 64 KiB chunks, that fails after `failAfter` bytes when given. */
function bytes(total: number, fill = 7, failAfter?: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (failAfter !== undefined && sent >= failAfter) return this.destroy(new Error('refused mid-stream'));
      if (sent >= total) return this.push(null);
      const n = Math.min(64 * 1024, total - sent);
      sent += n;
      this.push(Buffer.alloc(n, fill));
    },
  });
}

let s3: TestS3;
const root = mkdtempSync(join(tmpdir(), 'objects-'));
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.stop();
  rmSync(root, { recursive: true, force: true });
});

const stores: [string, () => ObjectStore][] = [
  ['local', () => new LocalObjectStore(root)],
  ['s3', () => new S3ObjectStore({ endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true })],
];

describe.each(stores)('%s store', (name, make) => {
  let store: ObjectStore;
  beforeAll(async () => {
    store = make();
    await store.check();
  });
  const p = `acct_${name}`;

  test('put (buffer) / get (stream) / head / copy / list / delete', async () => {
    await store.ensurePrefix(p);
    expect(await store.put(`${p}/logos/a.png`, Buffer.from('abc'), { contentType: 'image/png' })).toMatchObject({ size: 3 });
    const o = await store.get(`${p}/logos/a.png`);
    expect(o?.size).toBe(3);
    expect((await readAll(o!.body, 100)).toString()).toBe('abc');
    expect(await store.head(`${p}/logos/a.png`)).toMatchObject({ size: 3 });
    await store.copy(`${p}/logos/a.png`, `${p}/published/b.png`);
    expect((await readObject(store, `${p}/published/b.png`, 100))?.toString()).toBe('abc');
    const listed = await store.list(p);
    expect(listed).toEqual([
      { key: `${p}/logos/a.png`, size: 3, lastModified: expect.anything() },
      { key: `${p}/published/b.png`, size: 3, lastModified: expect.anything() },
    ]);
    expect(Math.abs(listed[0].lastModified.getTime() - Date.now())).toBeLessThan(60_000);
    await store.delete(`${p}/logos/a.png`);
    await store.delete(`${p}/logos/a.png`); // already gone: no error
    expect(await store.get(`${p}/logos/a.png`)).toBeNull();
    expect(await store.head(`${p}/logos/a.png`)).toBeNull();
    expect(await store.get(p)).toBeNull(); // a prefix is not an object
    expect(await store.list(`${p}x`)).toEqual([]);
    await store.delete(`${p}/published/b.png`);
  });

  test('a stream of unknown length is stored as it arrives (7 MiB: multipart on S3)', async () => {
    const size = 7 * 1024 * 1024;
    expect(await store.put(`${p}/big`, bytes(size, 9))).toMatchObject({ size });
    expect(await store.head(`${p}/big`)).toMatchObject({ size });
    const back = await readObject(store, `${p}/big`, size);
    expect(back?.length).toBe(size);
    expect(back?.every((b) => b === 9)).toBe(true);
    await expect(readObject(store, `${p}/big`, size - 1)).rejects.toThrow(/larger than/);
    await store.delete(`${p}/big`);
  });

  test.each([
    ['before the first part', 100 * 1024],
    ['after a multipart part went up', 6 * 1024 * 1024],
  ])('a stream that fails %s leaves nothing behind, not even the object it would replace', async (_when, failAfter) => {
    const key = `${p}/failing`;
    await expect(store.put(key, bytes(8 * 1024 * 1024, 1, failAfter))).rejects.toThrow('refused mid-stream');
    expect(await store.list(p)).toEqual([]);
    if (name === 'local') expect((readdirSync(join(root, p), { recursive: true }) as string[]).filter((f) => f.includes('.tmp-'))).toEqual([]); // no temporary file either
  });

  test.each(['../x', 'a/../../x', '/etc/passwd', 'a//b', '.hidden', 'a/./b', '', 'a\\b', 'a/b c'])('key %j is refused', async (key) => {
    expect(() => checkObjectKey(key)).toThrow(/invalid object key/);
    await expect(store.put(key, Buffer.from('x'))).rejects.toThrow();
  });
});

describe('configuration and start-up check', () => {
  const s3env = () => ({ OBJECT_STORE: 's3', S3_ENDPOINT: s3.endpoint, S3_BUCKET: s3.bucket, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });

  test('local by default, under DATA_DIR/objects; s3 with path-style by default at a custom endpoint', async () => {
    expect((await openObjectStore({ objectStore: { kind: 'local' }, dataDir: root })).backend).toBe('local');
    const cfg = loadConfig(s3env());
    expect(cfg.objectStore).toMatchObject({ kind: 's3', endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', forcePathStyle: true });
    expect(loadConfig({ ...s3env(), S3_FORCE_PATH_STYLE: 'false' }).objectStore).toMatchObject({ forcePathStyle: false });
    expect(loadConfig({ ...s3env(), S3_ENDPOINT: '' }).objectStore).toMatchObject({ endpoint: undefined, forcePathStyle: false });
    const store = await openObjectStore(cfg);
    expect(store.locationOf('acct_1')).toBe(`s3://${s3.bucket}/acct_1/`);
  });

  test.each([
    ['OBJECT_STORE', { OBJECT_STORE: 'gcs' }],
    ['S3_BUCKET', { S3_BUCKET: '' }],
    ['S3_BUCKET', { S3_BUCKET: 'Not_A_Bucket' }],
    ['S3_ACCESS_KEY_ID', { S3_ACCESS_KEY_ID: '' }],
    ['S3_SECRET_ACCESS_KEY', { S3_SECRET_ACCESS_KEY: '' }],
    ['S3_ENDPOINT', { S3_ENDPOINT: 'ftp://x' }],
    ['S3_REGION', { S3_REGION: 'Europe West' }],
    ['S3_FORCE_PATH_STYLE', { S3_FORCE_PATH_STYLE: 'maybe' }],
  ])('a bad %s stops loadConfig with one line naming it', (variable, patch) => {
    expect(() => loadConfig({ ...s3env(), ...patch })).toThrow(new RegExp(`^${variable}: `));
  });

  test.each([
    ['S3_BUCKET', () => ({ S3_BUCKET: 'no-such-bucket' })],
    ['S3_ACCESS_KEY_ID', () => ({ S3_ACCESS_KEY_ID: 'UNKNOWN-KEY' })],
    ['S3_ENDPOINT', () => ({ S3_ENDPOINT: 'http://127.0.0.1:1' })],
  ])('a store that cannot be used stops start-up naming %s', async (variable, patch) => {
    const err = await openObjectStore(loadConfig({ ...s3env(), ...patch() })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe(variable);
    expect((err as Error).message).not.toContain('\n');
  }, 20_000);
});

describe('logger redaction of account-service secrets', () => {
  test.each([
    ['an app webhook secret', 'whsec_AbCdEf0123456789AbCdEf0123456789'],
    ['a data-transfer access token', 'dtt_eyJ0IjoiZHRyXzEifQ.c2lnbmF0dXJlLXZhbHVl'],
    ['a presigned upload URL', '/uploads/eyJ1IjoidXBsXzEifQ.c2lnbmF0dXJlLXZhbHVl'],
  ])('%s', (_name, secret) => {
    const out = redact(`path=${secret} done`);
    expect(out).not.toContain(secret.slice(10));
    expect(out).toContain('[redacted]');
  });
});
