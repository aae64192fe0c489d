// The default object store: a directory on local disk (DATA_DIR/objects). Writes go to a temporary
// file beside the target and are renamed into place, so readers never see half an object and a
// failed stream leaves nothing behind. Every process using it must see the same directory.
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../config.js';
import { checkObjectKey, type ListedObject, type ObjectInfo, type ObjectStore, type ObjectStream } from './types.js';

const TMP_MARK = '.tmp-';

function missing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
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

  async check(): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true });
    } catch (e) {
      throw new ConfigError('DATA_DIR', `cannot create the object directory ${this.root}: ${(e as Error).message}`);
    }
  }

  locationOf(prefix: string): string {
    return `local://objects/${checkObjectKey(prefix)}`;
  }

  async ensurePrefix(prefix: string): Promise<void> {
    await mkdir(this.pathOf(prefix), { recursive: true });
  }

  async put(key: string, body: Buffer | Readable, _opts?: { contentType?: string }): Promise<ObjectInfo> {
    const p = this.pathOf(key);
    await mkdir(dirname(p), { recursive: true });
    const tmp = `${p}${TMP_MARK}${randomBytes(6).toString('hex')}`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(tmp, { flags: 'wx' }));
      const { size } = await stat(tmp);
      await rename(tmp, p);
      return { size };
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }

  async get(key: string): Promise<ObjectStream | null> {
    const info = await this.head(key);
    if (!info) return null;
    return { ...info, body: createReadStream(this.pathOf(key)) };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const s = await stat(this.pathOf(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (e) {
      if (missing(e)) return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    const p = this.pathOf(key);
    if ((await this.head(key)) !== null) await rm(p, { force: true });
  }

  async copy(from: string, to: string): Promise<void> {
    const target = this.pathOf(to);
    await mkdir(dirname(target), { recursive: true });
    const tmp = `${target}${TMP_MARK}${randomBytes(6).toString('hex')}`;
    try {
      await copyFile(this.pathOf(from), tmp);
      await rename(tmp, target);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }

  async list(prefix: string): Promise<ListedObject[]> {
    const dir = this.pathOf(prefix);
    let entries: string[];
    try {
      entries = (await readdir(dir, { recursive: true })) as string[];
    } catch (e) {
      if (missing(e)) return [];
      throw e;
    }
    const out: ListedObject[] = [];
    for (const entry of entries.sort()) {
      const s = await stat(join(dir, entry));
      if (!s.isFile()) continue;
      out.push({ key: relative(this.root, join(dir, entry)).split(sep).join('/'), size: s.size, lastModified: s.mtime });
    }
    return out;
  }
}
