// OBJECT_STORE=s3 end to end: a second stack (same database) whose platform subgraph and REST
// bridge use an S3-compatible server (s3rver) started here. Provisioning answers the bucket, a
// logo PUT streams into the bucket (multipart above 5 MiB), publish copies it server-side and the
// logo URL serves it; oversize and wrong-type uploads leave nothing in the bucket.
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { stackPorts } from '../../bench/harness.js';
import { readObject } from '../../lib/object-store.js';
import { S3ObjectStore } from '../../lib/object-store/s3.js';
import { createTenant, jsonApi, stack, type Tenant } from '../harness/client.js';
import { putUpload, tinyPng } from '../harness/platform-services.fixtures.js';
import { startS3Server, type TestS3 } from '../harness/s3-server.js';
import { spawnScript, stop, waitFor } from '../harness/spawn.js';

const base = Number(process.env.TEST_PORT_BASE ?? 14000) + 300;
let s3: TestS3;
let bucket: S3ObjectStore;
let child: ChildProcess | undefined;
const rest = `http://127.0.0.1:${base + 80}`;
let t: Tenant;

beforeAll(async () => {
  s3 = await startS3Server();
  bucket = new S3ObjectStore({ endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true });
  // the main stack's database (and embedded server, when there is no DATABASE_URL), its own ports
  const env = { ...stack().env, ...s3.env, ...stackPorts(base), EMBEDDED_PG_PORT: stack().env.EMBEDDED_PG_PORT, PUBLIC_URL: rest };
  child = spawnScript('scripts/start-all.ts', env, 's3-stack');
  [t] = await Promise.all([createTenant(), waitFor(`${rest}/health/ready`, 90_000, child)]);
}, 120_000);

afterAll(async () => {
  await stop(child);
  await s3?.stop();
});

async function call(method: string, path: string, body?: unknown) {
  const r = await fetch(`${rest}${path}`, { method, headers: { 'content-type': 'application/json', ...t.platformHeaders }, body: body ? JSON.stringify(body) : undefined });
  return { status: r.status, body: (await r.json()) as any };
}

async function presign() {
  const p = await call('POST', `/accounts/${t.accountUrlId}/logo/presign`);
  expect(p.status).toBe(200);
  const url: string = p.body.data.attributes.upload_url;
  expect(url.startsWith(`${rest}/uploads/`)).toBe(true);
  const grant = JSON.parse(Buffer.from(url.split('/uploads/')[1].split('.')[0], 'base64url').toString());
  return { id: p.body.data.id as string, url, key: grant.k as string, accountId: grant.o.account as string };
}

test('provisioning answers the S3 store', async () => {
  const r = await call('POST', `/accounts/${t.accountUrlId}/storage`);
  expect(r.status).toBe(200);
  expect(r.body.data.attributes).toMatchObject({ backend: 's3', location: expect.stringMatching(new RegExp(`^s3://${s3.bucket}/acct_\\w+/$`)) });
});

test.each([
  ['a small PNG (one PutObject)', 3],
  ['a 6 MiB PNG (multipart)', 6 * 1024 * 1024],
])('%s lands in the bucket, publishes and is served from it', async (_name, padding) => {
  const png = Buffer.concat([tinyPng(5, 4), Buffer.alloc(padding, 2)]);
  const p = await presign();
  const up = await putUpload(p.url, png);
  expect(up.status).toBe(200);
  expect(up.body.data.attributes).toMatchObject({ bytes: png.length, content_type: 'image/png', sha256: createHash('sha256').update(png).digest('hex') });
  expect(await bucket.head(p.key)).toMatchObject({ size: png.length, contentType: 'image/png' });
  expect((await readObject(bucket, p.key, png.length))?.equals(png)).toBe(true);

  const pub = await call('POST', `/accounts/${t.accountUrlId}/logo/publish`, jsonApi('logos', { upload_id: p.id }));
  expect(pub.status).toBe(200);
  expect(pub.body.data.attributes).toMatchObject({ format: 'png', width: 5, height: 4, bytes: png.length });
  expect(await bucket.head(p.key)).toBeNull(); // the staged object is gone, the published copy stays
  const file = await fetch(pub.body.data.attributes.logo_url);
  expect(file.status).toBe(200);
  expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
}, 60_000);

test('oversize (413) and wrong-type (415) uploads leave nothing in the bucket', async () => {
  const p = await presign();
  const before = await bucket.list(p.accountId);
  const big = await putUpload(p.url, Buffer.concat([tinyPng(), Buffer.alloc(10 * 1024 * 1024)]));
  expect(big.status).toBe(413);
  expect(big.body).toMatchObject({ error: 'payload_too_large' });
  const svg = await putUpload(p.url, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png');
  expect(svg.status).toBe(415);
  expect(svg.body).toMatchObject({ error: 'unsupported_media_type', parameter: 'body' });
  // no Content-Length: the cap is found while streaming, after a multipart part went up; the upload is aborted
  const body = Buffer.concat([tinyPng(), Buffer.alloc(11 * 1024 * 1024, 4)]);
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < body.length; i += 256 * 1024) c.enqueue(new Uint8Array(body.subarray(i, i + 256 * 1024)));
      c.close();
    },
  });
  const streamed = await fetch(p.url, { method: 'PUT', body: stream, duplex: 'half' } as RequestInit);
  expect(streamed.status).toBe(413);
  expect(await bucket.list(p.accountId)).toEqual(before);
  expect(before.some((o) => o.key === p.key)).toBe(false);
}, 60_000);
