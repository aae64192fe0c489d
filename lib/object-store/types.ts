// The object store's contract: what every backend (a local directory, an S3-compatible bucket)
// offers the services and the REST bridge. Keys are relative, '/'-separated, with no '.' or '..'
// segments (checkObjectKey); a prefix is a key's leading segments, e.g. an account id.
import type { Readable } from 'node:stream';

export interface ObjectInfo {
  size: number;
  /** set when the object was stored with one (S3 keeps it; the local store does not) */
  contentType?: string;
}

export interface ObjectStream extends ObjectInfo {
  body: Readable;
}

export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
}

export interface ObjectStore {
  readonly backend: 'local' | 's3';
  /** Fails with a ConfigError naming the variable when the store cannot be used (run at start-up). */
  check(): Promise<void>;
  /** a display form of where objects under `prefix` live (no server paths, no credentials) */
  locationOf(prefix: string): string;
  /** make sure `prefix` can take objects (a directory locally; nothing to do on S3) */
  ensurePrefix(prefix: string): Promise<void>;
  /**
   * Store `body` under `key`, replacing what was there. A stream is consumed as it arrives; when it
   * fails (e.g. an upload past its size cap), nothing is left under `key` or beside it.
   */
  put(key: string, body: Buffer | Readable, opts?: { contentType?: string }): Promise<ObjectInfo>;
  /** the object as a stream; null when there is no such object */
  get(key: string): Promise<ObjectStream | null>;
  head(key: string): Promise<ObjectInfo | null>;
  /** no error when the object is already gone */
  delete(key: string): Promise<void>;
  /** server-side copy (no bytes through this process on S3) */
  copy(from: string, to: string): Promise<void>;
  /** every object under `prefix/`, in key order */
  list(prefix: string): Promise<ListedObject[]>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function checkObjectKey(key: string): string {
  const segments = key.split('/');
  if (!key || key.length > 1024 || !segments.every((s) => SEGMENT.test(s))) throw new Error(`invalid object key "${key}"`);
  return key;
}
