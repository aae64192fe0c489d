// Object storage behind one small interface (object-store/types.ts): a directory on local disk by
// default (DATA_DIR/objects), or a bucket of an S3-compatible service with OBJECT_STORE=s3. The
// platform subgraph and the REST bridge open the same store: the bridge streams uploads into it,
// the services read, copy and delete what it holds.
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from './config.js';
import { LocalObjectStore } from './object-store/local.js';
import type { ObjectStore } from './object-store/types.js';

export { checkObjectKey, type ListedObject, type ObjectInfo, type ObjectStore, type ObjectStream } from './object-store/types.js';
export { LocalObjectStore } from './object-store/local.js';

/**
 * The store of `cfg`, checked: a missing bucket or refused credentials stop start-up with one line
 * (ConfigError). The S3 client is loaded only when OBJECT_STORE=s3, so local processes start light.
 */
export async function openObjectStore(cfg: Pick<Config, 'objectStore' | 'dataDir'>): Promise<ObjectStore> {
  const store = cfg.objectStore.kind === 's3' ? new (await import('./object-store/s3.js')).S3ObjectStore(cfg.objectStore) : new LocalObjectStore(resolve(cfg.dataDir, 'objects'));
  await store.check();
  return store;
}

/** Read a whole stream into memory, refusing more than `maxBytes`. */
export async function readAll(body: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of body) {
    size += (c as Buffer).length;
    if (size > maxBytes) {
      body.destroy();
      throw new Error(`object larger than ${maxBytes} bytes`);
    }
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The whole object (at most `maxBytes`), or null when there is none. */
export async function readObject(store: ObjectStore, key: string, maxBytes: number): Promise<Buffer | null> {
  const o = await store.get(key);
  return o ? readAll(o.body, maxBytes) : null;
}
