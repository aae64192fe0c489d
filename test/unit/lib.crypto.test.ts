// lib/crypto.ts: AES-256-GCM sealing with key ids (rotation) and AAD binding; master-key rules.
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig, parseKey32 } from '../../lib/config.js';
import { devMasterKey, keyIdOf, lastFourOf, masterSecretBox, maskSecret, SecretBox, SecretOpenError } from '../../lib/crypto.js';

const k1 = randomBytes(32);
const k2 = randomBytes(32);

describe('SecretBox', () => {
  test('seal → open round-trips, with a fresh IV each time', () => {
    const box = new SecretBox(k1);
    const a = box.seal('s3cr3t value ✓', 'row:1');
    const b = box.seal('s3cr3t value ✓', 'row:1');
    expect(a).not.toBe(b);
    expect(box.open(a, 'row:1')).toBe('s3cr3t value ✓');
    expect(box.open(b, 'row:1')).toBe('s3cr3t value ✓');
  });

  test('format: v1.<key id>.<96-bit iv>.<ciphertext>.<128-bit tag>, and no plaintext inside', () => {
    const box = new SecretBox(k1);
    const sealed = box.seal('plaintext-marker', 'aad');
    const [v, kid, iv, ct, tag] = sealed.split('.');
    expect(v).toBe('v1');
    expect(kid).toBe(keyIdOf(k1));
    expect(Buffer.from(iv, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag, 'base64url')).toHaveLength(16);
    expect(Buffer.from(ct, 'base64url')).toHaveLength('plaintext-marker'.length);
    expect(sealed).not.toContain('plaintext');
    expect(Buffer.from(ct, 'base64url').toString()).not.toContain('plaintext');
  });

  test('the AAD binds a value to its row: another AAD does not open it', () => {
    const box = new SecretBox(k1);
    const sealed = box.seal('x', 'credential:cred_a:secret');
    expect(() => box.open(sealed, 'credential:cred_b:secret')).toThrow(SecretOpenError);
  });

  test('tampering with any part fails authentication', () => {
    const box = new SecretBox(k1);
    const sealed = box.seal('hello world', 'a');
    const parts = sealed.split('.');
    for (const i of [2, 3, 4]) {
      const bytes = Buffer.from(parts[i], 'base64url');
      bytes[0] ^= 1;
      const forged = [...parts];
      forged[i] = bytes.toString('base64url');
      expect(() => box.open(forged.join('.'), 'a')).toThrow(SecretOpenError);
    }
    expect(() => box.open('v2.x.y.z.w', 'a')).toThrow(/unknown format/);
    expect(() => box.open('garbage', 'a')).toThrow(/unknown format/);
  });

  test('rotation: values sealed under a previous key still open; new values use the current key', () => {
    const old = new SecretBox(k1);
    const sealedOld = old.seal('legacy', 'a');
    const rotated = new SecretBox(k2, [k1]);
    expect(rotated.open(sealedOld, 'a')).toBe('legacy');
    expect(rotated.isCurrent(sealedOld)).toBe(false);
    const fresh = rotated.seal('new', 'a');
    expect(rotated.isCurrent(fresh)).toBe(true);
    expect(() => old.open(fresh, 'a')).toThrow(/neither MASTER_KEY nor in MASTER_KEY_PREVIOUS/);
    expect(() => new SecretBox(k2).open(sealedOld, 'a')).toThrow(SecretOpenError);
  });

  test('keys must be 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('master key configuration', () => {
  test('MASTER_KEY as hex or base64 (standard or URL-safe)', () => {
    const key = randomBytes(32);
    expect(parseKey32(key.toString('hex'), 'MASTER_KEY').equals(key)).toBe(true);
    expect(parseKey32(key.toString('base64'), 'MASTER_KEY').equals(key)).toBe(true);
    expect(parseKey32(key.toString('base64url'), 'MASTER_KEY').equals(key)).toBe(true);
    expect(loadConfig({ MASTER_KEY: key.toString('base64') }).masterKey?.equals(key)).toBe(true);
  });

  test.each(['short', randomBytes(16).toString('hex'), randomBytes(31).toString('base64'), 'z'.repeat(64)])('a bad MASTER_KEY (%s) stops start-up naming the variable', (v) => {
    expect(() => loadConfig({ MASTER_KEY: v })).toThrow(ConfigError);
    expect(() => loadConfig({ MASTER_KEY: v })).toThrow(/^MASTER_KEY: /);
  });

  test('MASTER_KEY_PREVIOUS takes a comma-separated list', () => {
    const cfg = loadConfig({ MASTER_KEY_PREVIOUS: `${k1.toString('hex')}, ${k2.toString('base64')}` });
    expect(cfg.previousMasterKeys.map((k) => k.toString('hex'))).toEqual([k1.toString('hex'), k2.toString('hex')]);
    expect(() => loadConfig({ MASTER_KEY_PREVIOUS: 'nope' })).toThrow(/^MASTER_KEY_PREVIOUS: /);
  });

  test('unset in development: the documented dev key (SHA-256 of a label and JWT_SECRET), with a warning', () => {
    const warnings: string[] = [];
    const log = { warn: (m: string) => warnings.push(m) } as any;
    const box = masterSecretBox(loadConfig({ JWT_SECRET: 'jwt' }), log);
    expect(box.keyId).toBe(keyIdOf(devMasterKey('jwt')));
    expect(warnings.join(' ')).toMatch(/MASTER_KEY is not set/);
  });

  test('unset in production: refused', () => {
    // production also needs its own JWT_SECRET and INTERNAL_SECRET (docs/security.md)
    const prod = { NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('hex'), INTERNAL_SECRET: randomBytes(32).toString('hex') };
    expect(() => masterSecretBox(loadConfig(prod))).toThrow(/^MASTER_KEY: is required when NODE_ENV=production/);
    const key = randomBytes(32);
    expect(masterSecretBox(loadConfig({ ...prod, MASTER_KEY: key.toString('hex') })).keyId).toBe(keyIdOf(key));
  });
});

describe('masking', () => {
  test('last four only for secrets of 12+ characters', () => {
    expect(lastFourOf('sk_live_abcdefgh1234')).toBe('1234');
    expect(lastFourOf('hunter2')).toBe('');
    expect(maskSecret('1234')).toBe('••••1234');
    expect(maskSecret('')).toBe('••••');
  });
});
