// Secrets at rest: AES-256-GCM under the master key (MASTER_KEY). A sealed value is one string
//
//   v1.<key id>.<iv>.<ciphertext>.<tag>          (iv: 96 random bits; parts base64url)
//
// The key id (a fingerprint of the key, never the key) says which master key sealed it, so keys
// can rotate: set the new MASTER_KEY and move the old one to MASTER_KEY_PREVIOUS; old rows still
// open, new writes use the new key, and isCurrent() tells which rows to re-seal.
// The caller passes associated data (AAD) naming the row and field the value belongs to, so a
// ciphertext copied into another row or column fails to open instead of decrypting there.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConfigError, type Config } from './config.js';
import type { Logger } from './logger.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretOpenError extends Error {
  constructor(reason: string) {
    super(`cannot open sealed secret: ${reason}`);
    this.name = 'SecretOpenError';
  }
}

/** Public fingerprint of a key: 'k' + 8 hex digits of SHA-256 over a label and the key. */
export function keyIdOf(key: Buffer): string {
  return 'k' + createHash('sha256').update('master-key-id:').update(key).digest('hex').slice(0, 8);
}

export class SecretBox {
  readonly keyId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const k of [current, ...previous]) {
      if (k.length !== 32) throw new Error('master keys must be 32 bytes');
    }
    this.keyId = keyIdOf(current);
    this.keys.set(this.keyId, current);
    for (const k of previous) if (!this.keys.has(keyIdOf(k))) this.keys.set(keyIdOf(k), k);
  }

  /** Encrypt `plaintext` bound to `aad` (e.g. `credential:<id>:secret`). */
  seal(plaintext: string | Buffer, aad: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.keyId)!, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ct = Buffer.concat([cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext), cipher.final()]);
    return [VERSION, this.keyId, iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  openBuffer(sealed: string, aad: string): Buffer {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretOpenError('unknown format');
    const [, kid, ivText, ctText, tagText] = parts;
    const key = this.keys.get(kid);
    if (!key) throw new SecretOpenError(`sealed under key ${kid}, which is neither MASTER_KEY nor in MASTER_KEY_PREVIOUS`);
    const iv = Buffer.from(ivText, 'base64url');
    const tag = Buffer.from(tagText, 'base64url');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretOpenError('malformed');
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(Buffer.from(ctText, 'base64url')), decipher.final()]);
    } catch {
      throw new SecretOpenError('authentication failed (wrong key, wrong row, or tampered)');
    }
  }

  open(sealed: string, aad: string): string {
    return this.openBuffer(sealed, aad).toString('utf8');
  }

  /** True when `sealed` is under the current key (false: re-seal it to finish a rotation). */
  isCurrent(sealed: string): boolean {
    return sealed.split('.')[1] === this.keyId;
  }
}

/**
 * The development master key, used only when MASTER_KEY is unset outside production:
 * SHA-256("supergraph-dev-master-key:" + JWT_SECRET). Derived from the JWT secret so separately
 * started processes agree; anyone who knows the JWT secret can derive it, hence the warning.
 */
export function devMasterKey(jwtSecret: string): Buffer {
  return createHash('sha256').update(`supergraph-dev-master-key:${jwtSecret}`).digest();
}

let devKeyWarned = false;

/** The process's SecretBox. NODE_ENV=production without MASTER_KEY is a start-up error. */
export function masterSecretBox(cfg: Pick<Config, 'masterKey' | 'previousMasterKeys' | 'production' | 'jwtSecret'>, log?: Logger): SecretBox {
  if (cfg.masterKey) return new SecretBox(cfg.masterKey, cfg.previousMasterKeys);
  if (cfg.production) throw new ConfigError('MASTER_KEY', 'is required when NODE_ENV=production (32 bytes, base64 or hex: `openssl rand -base64 32`)');
  // once a process (the one-process stack builds a SecretBox per subgraph)
  if (log && !devKeyWarned) {
    devKeyWarned = true;
    log.warn('MASTER_KEY is not set: stored secrets are encrypted under a development key derived from JWT_SECRET; set MASTER_KEY outside development');
  }
  return new SecretBox(devMasterKey(cfg.jwtSecret), cfg.previousMasterKeys);
}

/** Show a secret as its last four characters only; short secrets show nothing at all. */
export function maskSecret(lastFour: string | null | undefined): string {
  return lastFour ? `••••${lastFour}` : '••••';
}

/** The last four characters worth showing, or '' when the secret is too short to show any. */
export function lastFourOf(secret: string): string {
  return secret.length >= 12 ? secret.slice(-4) : '';
}

/** HMAC-SHA256 under a key derived for one purpose, so one secret can serve several signatures. */
export function purposeKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`purpose:${purpose}`).digest();
}

export function hmacSha256(key: Buffer | string, data: string | Buffer): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** SHA-256 hex, for one-time codes and tokens stored hashed. */
export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export function safeEqual(a: Buffer | string, b: Buffer | string): boolean {
  const x = typeof a === 'string' ? Buffer.from(a) : a;
  const y = typeof b === 'string' ? Buffer.from(b) : b;
  return x.length === y.length && timingSafeEqual(x, y);
}
