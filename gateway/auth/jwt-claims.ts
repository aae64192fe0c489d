// The claim rules every platform JWT meets, whatever signed it (docs/security.md, "JWT"): exp
// required and at most maxLifetimeSec after iat (or now), nbf honoured, iss/aud checked when
// configured, sub required; `skewSec` of tolerance on exp/nbf for tokens of other clocks (an
// identity provider's).
/** The claims of a platform JWT (CONTRACT: sub = user unique id, scope = space-separated scopes). */
export interface JwtClaims {
  sub: string;
  scope?: string;
  exp?: number;
  nbf?: number;
  iat?: number;
  iss?: string;
  aud?: string | string[];
  /** optional: restricts the token to one platform code */
  platform?: string;
  [k: string]: unknown;
}

/** A JWT's three parts as sent (the signed text is `${head}.${body}`) and its decoded header and claims. */
export interface DecodedJwt {
  head: string;
  body: string;
  sig: string;
  header: { alg?: unknown; kid?: unknown };
  claims: JwtClaims;
}

/**
 * A token split into its parts with header and claims parsed, or null when it is malformed (not three
 * parts, a part not base64url JSON, header or claims not an object). Verifies nothing: each verifier
 * (jwt.ts: HS256, jwks.ts: RS256/ES256) checks the algorithm, the key and the signature.
 */
export function decodeJwt(token: string): DecodedJwt | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [head, body, sig] = parts;
  let header: DecodedJwt['header'];
  let claims: JwtClaims;
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!header || typeof header !== 'object' || !claims || typeof claims !== 'object') return null;
  return { head, body, sig, header, claims };
}

export type JwtFailure =
  | 'malformed'
  | 'bad_signature'
  | 'expired'
  | 'not_yet_valid'
  | 'unsupported_alg'
  | 'missing_sub'
  | 'missing_exp'
  | 'lifetime_too_long'
  | 'unknown_kid'
  | 'bad_issuer'
  | 'bad_audience';

export type JwtResult = { ok: true; claims: JwtClaims; scopes: string[] } | { ok: false; reason: JwtFailure };

export interface ClaimRules {
  maxLifetimeSec: number;
  /** one issuer, or any of several */
  issuer?: string | string[];
  audience?: string;
  skewSec?: number;
}

export function checkClaims(claims: JwtClaims, rules: ClaimRules, nowSec: number): JwtResult {
  const skew = rules.skewSec ?? 0;
  const fail = (reason: JwtFailure): JwtResult => ({ ok: false, reason });
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return fail('missing_exp');
  if (nowSec >= claims.exp + skew) return fail('expired');
  if (typeof claims.nbf === 'number' && nowSec + skew < claims.nbf) return fail('not_yet_valid');
  const issuedAt = typeof claims.iat === 'number' && claims.iat <= nowSec + skew ? Math.min(claims.iat, nowSec) : nowSec;
  if (claims.exp - issuedAt > rules.maxLifetimeSec) return fail('lifetime_too_long');
  if (rules.issuer !== undefined) {
    const allowed = Array.isArray(rules.issuer) ? rules.issuer : [rules.issuer];
    if (typeof claims.iss !== 'string' || !allowed.includes(claims.iss)) return fail('bad_issuer');
  }
  if (rules.audience !== undefined) {
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!aud.includes(rules.audience)) return fail('bad_audience');
  }
  if (typeof claims.sub !== 'string' || !claims.sub) return fail('missing_sub');
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(/\s+/).filter(Boolean) : [];
  return { ok: true, claims, scopes };
}
