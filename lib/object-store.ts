// Object storage behind one small interface. The default is a directory on local disk
// (DATA_DIR/objects); OBJECT_STORE=s3 names an S3-compatible service, which this build does not
// speak yet: every call then fails with STORAGE_BACKEND_UNSUPPORTED (501), clearly, instead of
// silently writing to local disk. Keys are relative, '/'-separated, with no '.' or '..' segments.
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from './config.js';
import { DomainError } from './errors.js';

export interface ObjectStore {
  readonly backend: 'local' | 's3';
  /** a display form of where objects under `prefix` live (no server paths) */
  locationOf(prefix: string): string;
  /** make sure `prefix` can take objects (a directory locally) */
  ensurePrefix(prefix: string): Promise<void>;
  put(key: string, body: Buffer): Promise<{ size: number }>;
  /** null when there is no such object */
  get(key: string): Promise<Buffer | null>;
  head(key: string): Promise<{ size: number } | null>;
  /** no error when the object is already gone */
  delete(key: string): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function checkObjectKey(key: string): string {
  const segments = key.split('/');
  if (!key || key.length > 1024 || !segments.every((s) => SEGMENT.test(s))) throw new Error(`invalid object key "${key}"`);
  return key;
}

export class LocalObjectStore implements ObjectStore {
  readonly backend = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    const p = resolve(this.root, checkObjectKey(key));
    if (!p.startsWith(this.root + sep)) throw new Error(`object key "${key}" escapes the store`);
    return p;
  }

  locationOf(prefix: string): string {
    return `local://objects/${checkObjectKey(prefix)}`;
  }

  async ensurePrefix(prefix: string): Promise<void> {
    await mkdir(this.pathOf(prefix), { recursive: true });
  }

  /** Written to a temporary name first, then renamed: readers never see half an object. */
  async put(key: string, body: Buffer): Promise<{ size: number }> {
    const p = this.pathOf(key);
    await mkdir(dirname(p), { recursive: true });
    const tmp = `${p}.tmp-${randomBytes(6).toString('hex')}`;
    await writeFile(tmp, body);
    await rename(tmp, p);
    return { size: body.length };
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'EISDIR') return null;
      throw e;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const s = await stat(this.pathOf(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

/** OBJECT_STORE=s3: configured, but this build has no S3 client; every call says so (501). */
export class UnsupportedS3Store implements ObjectStore {
  readonly backend = 's3' as const;
  constructor(private readonly endpoint: string) {}
  private fail(): never {
    throw new DomainError(
      'STORAGE_BACKEND_UNSUPPORTED',
      `OBJECT_STORE=s3 (${this.endpoint}) is configured, but this build has no S3 client; unset OBJECT_STORE to use the local store`,
    );
  }
  locationOf(): string {
    return this.fail();
  }
  ensurePrefix(): Promise<void> {
    return this.fail();
  }
  put(): Promise<{ size: number }> {
    return this.fail();
  }
  get(): Promise<Buffer | null> {
    return this.fail();
  }
  head(): Promise<{ size: number } | null> {
    return this.fail();
  }
  delete(): Promise<void> {
    return this.fail();
  }
}

export function createObjectStore(cfg: Pick<Config, 'objectStore' | 'dataDir'>): ObjectStore {
  if (cfg.objectStore.kind === 's3') return new UnsupportedS3Store(cfg.objectStore.endpoint);
  return new LocalObjectStore(resolve(cfg.dataDir, 'objects'));
}
