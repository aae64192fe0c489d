// A stored object's key sealed for the one process that streams it. A service answering a public
// read (an image file) says where the bytes are without telling the client: the key names the
// owning app and environment, so it travels sealed (AES-256-GCM under a key derived from
// INTERNAL_SECRET) and only a process holding that secret (the REST bridge) opens it.
import { purposeKey, SecretBox, SecretOpenError } from './crypto.js';

const PURPOSE = 'stored-object-ref-v1';
const AAD = 'stored-object-ref';

const box = (secret: string) => new SecretBox(purposeKey(secret, PURPOSE));

export function sealObjectRef(key: string, secret: string): string {
  return box(secret).seal(key, AAD);
}

/** The key inside `ref`; null when it was not sealed with `secret` (tampered, or another deployment's). */
export function openObjectRef(ref: string, secret: string): string | null {
  try {
    return box(secret).open(ref, AAD);
  } catch (e) {
    if (e instanceof SecretOpenError) return null;
    throw e;
  }
}
