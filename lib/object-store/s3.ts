// OBJECT_STORE=s3: objects in one bucket of an S3-compatible service (AWS S3, MinIO, Ceph, R2…),
// through @aws-sdk/client-s3. Streams of unknown length go up with lib-storage's Upload: one
// PutObject below PART_BYTES, a multipart upload above, aborted when the stream fails, so a refused
// upload leaves no object and no parts. Checksums are computed only where S3 requires them, since
// many S3-compatible servers do not speak the newer trailing-checksum encoding.
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ConfigError } from '../config.js';
import { DomainError } from '../errors.js';
import { checkObjectKey, type ListedObject, type ObjectInfo, type ObjectStore, type ObjectStream } from './types.js';

export interface S3Settings {
  /** unset: AWS's own endpoint for the region */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** path-style URLs (`endpoint/bucket/key`) instead of virtual hosts (`bucket.endpoint/key`) */
  forcePathStyle: boolean;
}

/** Multipart part size (S3's minimum); at most two parts are held in memory per upload. */
export const PART_BYTES = 5 * 1024 * 1024;

function status(e: unknown): number | undefined {
  return (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function notFound(e: unknown): boolean {
  const name = (e as { name?: string }).name;
  return status(e) === 404 || name === 'NotFound' || name === 'NoSuchKey';
}

/** A failure of the storage service during a request: 503, never a 500 with the SDK's words. */
function unavailable(e: unknown, what: string): DomainError {
  return new DomainError('SERVICE_UNAVAILABLE', `The object store is unavailable (${what}: ${(e as Error).name ?? 'error'}); retry shortly`);
}

export class S3ObjectStore implements ObjectStore {
  readonly backend = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly where: string;

  constructor(s: S3Settings) {
    this.bucket = s.bucket;
    this.where = s.endpoint ?? `AWS S3 (${s.region})`;
    this.client = new S3Client({
      endpoint: s.endpoint,
      region: s.region,
      forcePathStyle: s.forcePathStyle,
      credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (e) {
      const code = status(e);
      if (code === 404) throw new ConfigError('S3_BUCKET', `bucket "${this.bucket}" does not exist at ${this.where}`);
      if (code === 403 || code === 401) throw new ConfigError('S3_ACCESS_KEY_ID', `${this.where} refused the credentials for bucket "${this.bucket}" (${code})`);
      if (code === 301 || code === 400) throw new ConfigError('S3_REGION', `bucket "${this.bucket}" is not reachable as configured at ${this.where} (${code}); check S3_REGION and S3_FORCE_PATH_STYLE`);
      throw new ConfigError('S3_ENDPOINT', `cannot reach ${this.where}: ${(e as Error).message || (e as Error).name}`);
    }
  }

  locationOf(prefix: string): string {
    return `s3://${this.bucket}/${checkObjectKey(prefix)}/`;
  }

  async ensurePrefix(prefix: string): Promise<void> {
    checkObjectKey(prefix); // S3 has no directories: a prefix exists once an object has it
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType?: string } = {}): Promise<ObjectInfo> {
    const Key = checkObjectKey(key);
    if (Buffer.isBuffer(body)) {
      await this.send('put', () => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentLength: body.length, ContentType: opts.contentType })));
      return { size: body.length, contentType: opts.contentType };
    }
    let size = 0;
    let refused: unknown;
    // counts the bytes, and keeps the source's own failure (e.g. an upload past its size cap) apart
    // from the store's
    async function* counted(src: Readable) {
      try {
        for await (const c of src) {
          size += (c as Buffer).length;
          yield c as Buffer;
        }
      } catch (e) {
        refused = e;
        throw e;
      }
    }
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key, Body: Readable.from(counted(body)), ContentType: opts.contentType },
      partSize: PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (e) {
      if (refused !== undefined) throw refused;
      throw unavailable(e, 'put');
    }
    return { size, contentType: opts.contentType };
  }

  async get(key: string): Promise<ObjectStream | null> {
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checkObjectKey(key) }));
      return { size: r.ContentLength ?? 0, contentType: r.ContentType, body: r.Body as Readable };
    } catch (e) {
      if (notFound(e)) return null;
      throw unavailable(e, 'get');
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkObjectKey(key) }));
      return { size: r.ContentLength ?? 0, contentType: r.ContentType };
    } catch (e) {
      if (notFound(e)) return null;
      throw unavailable(e, 'head');
    }
  }

  async delete(key: string): Promise<void> {
    const Key = checkObjectKey(key);
    await this.send('delete', () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key })));
  }

  async copy(from: string, to: string): Promise<void> {
    const source = `${this.bucket}/${checkObjectKey(from)}`;
    const Key = checkObjectKey(to);
    await this.send('copy', () => this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key, CopySource: encodeURI(source), MetadataDirective: 'COPY' })));
  }

  async list(prefix: string): Promise<ListedObject[]> {
    const Prefix = `${checkObjectKey(prefix)}/`;
    const out: ListedObject[] = [];
    let ContinuationToken: string | undefined;
    do {
      const r = await this.send('list', () => this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix, ContinuationToken })));
      for (const o of r.Contents ?? []) if (o.Key) out.push({ key: o.Key, size: o.Size ?? 0, lastModified: o.LastModified ?? new Date(0) });
      ContinuationToken = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private async send<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (e) {
      throw unavailable(e, what);
    }
  }
}
