// lib/object-store.ts: the local directory store (atomic writes, no escaping the root) and the
// clear 501 of a configured-but-unsupported S3 backend.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../../lib/errors.js';
import { redact } from '../../lib/logger.js';
import { checkObjectKey, createObjectStore, LocalObjectStore, UnsupportedS3Store } from '../../lib/object-store.js';

describe('LocalObjectStore', () => {
  const root = mkdtempSync(join(tmpdir(), 'objects-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const store = new LocalObjectStore(root);

  test('put / get / head / delete', async () => {
    await store.ensurePrefix('acct_1');
    expect(await store.put('acct_1/logos/a.png', Buffer.from('abc'))).toEqual({ size: 3 });
    expect((await store.get('acct_1/logos/a.png'))?.toString()).toBe('abc');
    expect(await store.head('acct_1/logos/a.png')).toEqual({ size: 3 });
    expect(readdirSync(join(root, 'acct_1', 'logos'))).toEqual(['a.png']); // no temporary files left
    await store.delete('acct_1/logos/a.png');
    await store.delete('acct_1/logos/a.png');
    expect(await store.get('acct_1/logos/a.png')).toBeNull();
    expect(await store.head('acct_1/logos/a.png')).toBeNull();
    expect(await store.get('acct_1/logos')).toBeNull(); // a directory is not an object
    expect(store.locationOf('acct_1')).toBe('local://objects/acct_1');
  });

  test.each(['../x', 'a/../../x', '/etc/passwd', 'a//b', '.hidden', 'a/./b', '', 'a\\b', 'a/b c'])('key %j is refused', async (key) => {
    expect(() => checkObjectKey(key)).toThrow(/invalid object key/);
    await expect(store.put(key, Buffer.from('x'))).rejects.toThrow();
  });
});

describe('createObjectStore', () => {
  test('local by default, under DATA_DIR/objects', () => {
    expect(createObjectStore({ objectStore: { kind: 'local' }, dataDir: '/tmp/x' }).backend).toBe('local');
  });

  test('OBJECT_STORE=s3 answers STORAGE_BACKEND_UNSUPPORTED (501) on use, naming the endpoint', async () => {
    const store = createObjectStore({
      objectStore: { kind: 's3', endpoint: 'https://s3.example.com', bucket: 'b', region: 'r', accessKeyId: 'a', secretAccessKey: 's' },
      dataDir: '/tmp/x',
    });
    expect(store).toBeInstanceOf(UnsupportedS3Store);
    let caught: unknown;
    try {
      await store.put('k', Buffer.from('x'));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(DomainError);
    expect(caught).toMatchObject({ code: 'STORAGE_BACKEND_UNSUPPORTED', status: 501, message: expect.stringContaining('https://s3.example.com') });
  });
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
