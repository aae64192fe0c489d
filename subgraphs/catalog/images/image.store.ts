// What the image services need from their process: the object store the REST bridge streams
// uploads into (the same DATA_DIR or bucket), the public base URL images are served under, and the
// secret that signs upload URLs and verifies the bridge's receipts.
import type { Config } from '../../../lib/config.js';
import { openObjectStore, type ObjectStore } from '../../../lib/object-store.js';

export interface ImageStore {
  objects: ObjectStore;
  publicUrl: string;
  uploadSecret: string;
}

export async function openImageStore(cfg: Config): Promise<ImageStore> {
  return { objects: await openObjectStore(cfg), publicUrl: cfg.publicUrl, uploadSecret: cfg.internalSecret };
}
