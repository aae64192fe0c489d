// The CORS decisions of lib/cors.ts without a server: origin parsing (CORS_ORIGINS), preflights
// answered from what they announce, and the actual-response rule per outcome.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerPreflight, parseOrigin, responseOriginAllowed } from '../../lib/cors.js';
import { loadConfig, ConfigError } from '../../lib/config.js';

function req(headers: Record<string, string>, method = 'GET'): IncomingMessage {
  return { method, headers } as unknown as IncomingMessage;
}

function res() {
  const out: { status?: number; headers?: Record<string, string> } = {};
  const r = { writeHead: (s: number, h: Record<string, string>) => Object.assign(out, { status: s, headers: h }), end: () => undefined } as unknown as ServerResponse;
  return { r, out };
}

describe('lib/cors', () => {
  test('CORS_ORIGINS takes exact origins or *, and names the variable otherwise', () => {
    expect(parseOrigin('https://app.example.com')).toBe('https://app.example.com');
    expect(parseOrigin('http://localhost:5173/')).toBe('http://localhost:5173');
    expect(parseOrigin('*')).toBe('*');
    expect(parseOrigin('https://app.example.com/path')).toBeUndefined();
    expect(parseOrigin('ftp://x.example.com')).toBeUndefined();
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com, http://b.test:8080' }).corsOrigins).toEqual(['https://a.example.com', 'http://b.test:8080']);
    expect(() => loadConfig({ CORS_ORIGINS: 'not an origin' })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: 'not an origin' })).toThrow(/CORS_ORIGINS/);
  });

  test('preflights: key-bearing from anywhere, others from CORS_ORIGINS or the own origin; non-preflights pass through', () => {
    const pre = (origin: string, headers: string, host = 'api.test:4000') =>
      req({ origin, host, 'access-control-request-method': 'POST', 'access-control-request-headers': headers }, 'OPTIONS');
    let x = res();
    expect(answerPreflight(pre('https://evil.test', 'x-app-id, x-api-key'), x.r, [])).toBe(true);
    expect(x.out.headers?.['access-control-allow-origin']).toBe('https://evil.test');
    x = res();
    answerPreflight(pre('https://evil.test', 'authorization'), x.r, ['https://console.test']);
    expect(x.out.status).toBe(204);
    expect(x.out.headers?.['access-control-allow-origin']).toBeUndefined();
    x = res();
    answerPreflight(pre('https://console.test', 'authorization'), x.r, ['https://console.test']);
    expect(x.out.headers?.['access-control-allow-origin']).toBe('https://console.test');
    x = res();
    answerPreflight(pre('http://api.test:4000', 'authorization'), x.r, []);
    expect(x.out.headers?.['access-control-allow-origin']).toBe('http://api.test:4000');
    expect(answerPreflight(req({ origin: 'https://a.test' }, 'OPTIONS'), res().r, [])).toBe(false);
  });

  test('actual responses: a verified key is readable, an origin refusal never, JWT by the list', () => {
    const keyReq = req({ 'x-app-id': 'app_1', host: 'api.test' });
    const jwtReq = req({ authorization: 'Bearer x', host: 'api.test' });
    expect(responseOriginAllowed(keyReq, 'https://shop.test', { ok: true, kind: 'key' }, [])).toBe(true);
    expect(responseOriginAllowed(keyReq, 'https://shop.test', { ok: false, code: 'ORIGIN_NOT_ALLOWED' }, ['*'])).toBe(false);
    expect(responseOriginAllowed(keyReq, 'https://shop.test', { ok: false, code: 'KEY_NOT_FOUND' }, [])).toBe(true);
    expect(responseOriginAllowed(jwtReq, 'https://shop.test', { ok: true, kind: 'user' }, [])).toBe(false);
    expect(responseOriginAllowed(jwtReq, 'https://shop.test', { ok: true, kind: 'user' }, ['https://shop.test'])).toBe(true);
  });
});
