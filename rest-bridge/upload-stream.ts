// The checks an upload body passes on its way into the object store, as a Transform: bytes are
// counted against the cap (413 the moment it is passed), the media type is decided from the first
// MEDIA_SNIFF_BYTES (415 unless allowed), and the SHA-256 is computed as the bytes go through.
// Nothing is passed on before the type is decided, so a refused body never reaches the store.
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { DomainError } from '../lib/errors.js';
import { MEDIA_SNIFF_BYTES, sniffMediaType, type MediaType } from '../lib/media-type.js';

export class UploadInspector extends Transform {
  size = 0;
  /** resolves once the first bytes are in (or the body ended), rejects with 415 or 400 */
  readonly type: Promise<MediaType>;
  private resolveType!: (t: MediaType) => void;
  private rejectType!: (e: Error) => void;
  private decided = false;
  private head: Buffer[] = [];
  private readonly hash: Hash = createHash('sha256');

  constructor(
    private readonly limit: number,
    private readonly allowed: readonly MediaType[],
  ) {
    super();
    this.type = new Promise((resolve, reject) => {
      this.resolveType = resolve;
      this.rejectType = reject;
    });
    this.type.catch(() => undefined); // also delivered through the stream's error
  }

  /** hex SHA-256 of everything that went through; call after the stream ended */
  digest(): string {
    return this.hash.digest('hex');
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) return done(new DomainError('PAYLOAD_TOO_LARGE', `This upload takes at most ${this.limit} bytes`));
    this.hash.update(chunk);
    if (this.decided) return done(null, chunk);
    this.head.push(chunk);
    if (this.size < MEDIA_SNIFF_BYTES) return done();
    this.decide(done);
  }

  override _flush(done: TransformCallback): void {
    if (this.decided) return done();
    if (this.size === 0) {
      const e = new DomainError('BAD_REQUEST', 'The upload body is empty: PUT the file bytes');
      this.rejectType(e);
      return done(e);
    }
    this.decide(done);
  }

  override _destroy(err: Error | null, done: (error?: Error | null) => void): void {
    if (!this.decided) this.rejectType(err ?? new Error('upload stream closed before its first bytes'));
    done(err);
  }

  private decide(done: TransformCallback): void {
    const head = Buffer.concat(this.head);
    this.head = [];
    const type = sniffMediaType(head);
    if (!type || !this.allowed.includes(type)) {
      const e = new DomainError('UNSUPPORTED_MEDIA_TYPE', `The file is ${type ?? 'not a recognised type'}; this upload takes ${this.allowed.join(', ')} (decided from its first bytes)`, {
        parameter: 'body',
      });
      this.rejectType(e);
      return done(e);
    }
    this.decided = true;
    this.resolveType(type);
    done(null, head);
  }
}
