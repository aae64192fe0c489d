// An S3-compatible server (s3rver) started in-process on a free port, for the S3 object store's
// tests: real HTTP and the S3 wire protocol (single and multipart puts, copies, listings), objects in
// a temporary directory. s3rver knows one access key (S3RVER) and refuses others; it does not check
// SigV4 signatures themselves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** the OBJECT_STORE=s3 environment of a process that should use this server */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startS3Server(bucket = 'test-objects'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const creds = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    endpoint,
    bucket,
    ...creds,
    env: { OBJECT_STORE: 's3', S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: creds.accessKeyId, S3_SECRET_ACCESS_KEY: creds.secretAccessKey },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
