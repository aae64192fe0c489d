// lib/logger.ts: secrets never reach a log line — API keys, bearer tokens and JWTs are masked
// wherever they sit.
import { createHmac } from 'node:crypto';
import { createLogger, redact } from '../../lib/logger.js';

const SK = 'sk_live_sh_4f9Qz7LmP2xWc8RbT1yN';
const PK = 'pk_test_ent_Zx81LmQ02pw9rT5kVv7a';
const BYOK = 'sk_test_byok_abcDEF123456ghiJKL';

function jwt(claims: object): string {
  const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${head}.${body}.${createHmac('sha256', 'k').update(`${head}.${body}`).digest('base64url')}`;
}
const JWT = jwt({ sub: 'usr_123', scope: 'products:read' });
const [, JWT_BODY, JWT_SIG] = JWT.split('.');

/** The secret part of an API key: everything after the environment/model prefix. */
const tail = (key: string) => key.split('_').slice(3).join('_');

describe('redact', () => {
  test.each([SK, PK, BYOK])('API key %s', (key) => {
    const out = redact(`verifying ${key} for app_1`);
    expect(out).not.toContain(key);
    expect(out).not.toContain(tail(key));
    expect(out).toContain('[redacted]');
    expect(out).toContain('for app_1');
  });

  test('an API key inside JSON and a query string', () => {
    const out = redact(JSON.stringify({ headers: { 'x-api-key': SK }, url: `/v1/products?key=${PK}&x=1` }));
    expect(out).not.toContain(tail(SK));
    expect(out).not.toContain(tail(PK));
    expect(out).toContain('&x=1');
  });

  test('several keys on one line', () => {
    const out = redact(`${SK} ${PK} ${SK}`);
    expect(out).not.toContain(tail(SK));
    expect(out).not.toContain(tail(PK));
    expect(out.match(/\[redacted\]/g)).toHaveLength(3);
  });

  test('a Bearer opaque token', () => {
    const token = 'opaqueTok3n_value-123.abc';
    for (const line of [`Authorization: Bearer ${token}`, `authorization: bearer ${token}`, `BEARER   ${token}`]) {
      const out = redact(line);
      expect(out).not.toContain(token);
      expect(out).not.toContain('3n_value-123.abc');
    }
  });

  test('a Bearer token with RFC 6750 b64token characters (+ / ~ =)', () => {
    const token = 'aGVsbG8+d29y/bGQ~ZXhhbXBsZQ==';
    const out = redact(`Authorization: Bearer ${token}`);
    expect(out).not.toContain('d29y/bGQ~ZXhhbXBsZQ==');
    expect(out).not.toContain('ZXhhbXBsZQ');
  });

  test('a Bearer JWT', () => {
    const out = redact(`Authorization: Bearer ${JWT}`);
    expect(out).not.toContain(JWT_BODY);
    expect(out).not.toContain(JWT_SIG);
  });

  test('a bare JWT, anywhere', () => {
    for (const line of [JWT, `token=${JWT}`, JSON.stringify({ token: JWT }), `"${JWT}"`]) {
      const out = redact(line);
      expect(out).not.toContain(JWT_BODY);
      expect(out).not.toContain(JWT_SIG);
    }
  });

  test('ordinary text is left alone', () => {
    const line = 'GET /v1/products/prod_3kTMd92jXq8bPz1vYw0R 200 12ms sku=SK-LIVE-1 sk_live_ alone';
    expect(redact(line)).toBe(line);
  });
});

describe('createLogger output', () => {
  function capture(run: () => void): { out: string; err: string } {
    const stdout = process.stdout.write;
    const stderr = process.stderr.write;
    let out = '';
    let err = '';
    process.stdout.write = ((chunk: string | Uint8Array) => ((out += String(chunk)), true)) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array) => ((err += String(chunk)), true)) as typeof process.stderr.write;
    try {
      run();
    } finally {
      process.stdout.write = stdout;
      process.stderr.write = stderr;
    }
    return { out, err };
  }

  test('secrets in fields, nested objects and errors are masked; JSON lines', () => {
    const { out, err } = capture(() => {
      const log = createLogger({ service: 'gateway' }, 'debug').child({ requestId: 'r1' });
      log.info('request', { headers: { authorization: `Bearer ${JWT}`, 'x-api-key': SK } });
      log.error('lookup failed', { err: new Error(`key ${PK} rejected`) });
    });
    for (const text of [out, err]) {
      expect(text).not.toContain(JWT_BODY);
      expect(text).not.toContain(JWT_SIG);
      expect(text).not.toContain(tail(SK));
      expect(text).not.toContain(tail(PK));
    }
    const info = JSON.parse(out.trim());
    expect(info).toMatchObject({ level: 'info', msg: 'request', service: 'gateway', requestId: 'r1' });
    const error = JSON.parse(err.trim());
    expect(error).toMatchObject({ level: 'error', msg: 'lookup failed', err: { name: 'Error' } });
    expect(error.err.message).toContain('[redacted]');
  });

  test('levels below the threshold are dropped; warn and error go to stderr', () => {
    const { out, err } = capture(() => {
      const log = createLogger({}, 'warn');
      log.debug('d');
      log.info('i');
      log.warn('w');
      log.error('e');
    });
    expect(out).toBe('');
    expect(err.trim().split('\n').map((l) => JSON.parse(l).msg)).toEqual(['w', 'e']);
  });

  test('silent writes nothing', () => {
    const { out, err } = capture(() => createLogger({}, 'silent').error('x'));
    expect(out + err).toBe('');
  });
});
