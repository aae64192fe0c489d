// Open WebSockets follow their credentials (docs/security.md, "Live connections"). A socket is
// authenticated once, at connection_init; afterwards the gateway closes it, within a second and
// before any further event is sent, when
//   - its JWT's exp or its key's expires_at passes (a timer set at connection time): 4401;
//   - its key's record changes (`platform.keys.invalidated`, key-invalidation.ts) and a re-check of
//     the key finds it revoked, regenerated (the presented value is unknown) or expired: 4401; or
//     its app, account or platform disabled, or its IP or origin no longer allowed: 4403;
//   - the operator record behind an operator token (X-Platform) is removed: 4403.
// A re-check that finds the key still valid updates the connection's tenant in place (plan, scopes),
// so a plan change applies to the operations and subscription follow-ups of open connections too.
import type { Logger } from '../../lib/logger.js';
import { capPlatformScopes, type TenantContext } from '../../lib/tenant.js';
import type { KeysInvalidatedPayload } from '../../lib/events.js';
import type { ApiKeyVerifier, KeyFailure } from '../auth/api-key.js';
import type { Credentials } from '../auth/authenticate.js';
import type { OperatorRecord, OperatorVerifier } from '../auth/operators.js';

/** The credentials are gone: expired, revoked, regenerated, unknown (graphql-ws uses 4401 for Unauthorized). */
export const CLOSE_CREDENTIALS_GONE = 4401;
/** The credentials exist but no longer reach the tenant: app, account or platform disabled, IP or origin, operator removed. */
export const CLOSE_FORBIDDEN = 4403;

export interface ClosableSocket {
  close(code: number, reason: string): void;
}

interface Live {
  socket: ClosableSocket;
  tenant: TenantContext;
  credentials: Credentials;
  timer?: NodeJS.Timeout;
  closed: boolean;
}

/** setTimeout's ceiling (~24.8 days): a later expiry is reached in steps. */
const MAX_DELAY = 2 ** 31 - 1;

const GONE: readonly KeyFailure[] = ['KEY_NOT_FOUND', 'KEY_REVOKED', 'KEY_EXPIRED', 'APP_MISMATCH'];

export class LiveConnections {
  private live = new Set<Live>();

  constructor(
    private deps: { keys: ApiKeyVerifier; operators?: OperatorVerifier; log: Logger; now?: () => number },
  ) {}

  /** Track an authenticated socket until the returned function is called (on close). */
  add(socket: ClosableSocket, tenant: TenantContext, credentials: Credentials = {}): () => void {
    const l: Live = { socket, tenant, credentials, closed: false };
    this.live.add(l);
    this.schedule(l);
    return () => this.forget(l);
  }

  /** Open sockets (tests, metrics). */
  get size(): number {
    return this.live.size;
  }

  /** Re-check the sockets an invalidation concerns; resolves once each is closed or confirmed. */
  async onInvalidation(p: KeysInvalidatedPayload): Promise<void> {
    const checks: Promise<void>[] = [];
    for (const l of this.live) {
      const t = l.tenant;
      if (l.credentials.key && keyConcerned(p, t)) checks.push(this.recheckKey(l));
      else if (t.operatorPlatformId && (p.operatorPlatformIds?.includes(t.operatorPlatformId) || p.platformIds?.includes(t.operatorPlatformId))) checks.push(this.recheckOperator(l));
    }
    await Promise.all(checks);
  }

  /** Close every socket (gateway stop). */
  closeAll(code: number, reason: string): void {
    for (const l of [...this.live]) this.close(l, code, reason);
  }

  private async recheckKey(l: Live): Promise<void> {
    const v = await this.deps.keys.check(l.credentials.key!);
    if (l.closed) return;
    if (!v.valid) {
      if (v.code === 'SERVICE_UNAVAILABLE' || v.code === 'RATE_LIMITED') {
        // the platform could not answer: keep the socket; its expiry timer still holds
        this.deps.log.warn('live connection re-check failed', { code: v.code });
        return;
      }
      return this.close(l, GONE.includes(v.code) ? CLOSE_CREDENTIALS_GONE : CLOSE_FORBIDDEN, v.message);
    }
    // still valid: what may have changed applies to the open connection from now on
    l.tenant.scopes = v.key.scopes;
    if (v.key.plan) l.tenant.plan = v.key.plan;
    else delete l.tenant.plan;
    l.credentials.keyExpiresAt = v.key.expiresAt ? Date.parse(v.key.expiresAt) : undefined;
    this.schedule(l);
  }

  private async recheckOperator(l: Live): Promise<void> {
    const t = l.tenant;
    let op: OperatorRecord | null | undefined;
    try {
      op = await this.deps.operators?.find(t.userId!, t.platformCode!);
    } catch {
      return;
    }
    if (l.closed) return;
    if (!op) return this.close(l, CLOSE_FORBIDDEN, 'No longer an operator of this platform');
    t.scopes = capPlatformScopes(t.userScopes ?? t.scopes, op.scopes);
  }

  /** A timer for the earliest of the JWT's exp and the key's expiry. */
  private schedule(l: Live): void {
    if (l.timer) clearTimeout(l.timer);
    l.timer = undefined;
    const { jwtExpiresAt, keyExpiresAt } = l.credentials;
    const at = Math.min(jwtExpiresAt ?? Infinity, keyExpiresAt ?? Infinity);
    if (at === Infinity) return;
    const delay = at - (this.deps.now ?? Date.now)();
    if (delay <= 0) return this.close(l, CLOSE_CREDENTIALS_GONE, jwtExpiresAt === at ? 'The token has expired' : 'The API key has expired');
    l.timer = setTimeout(() => this.schedule(l), Math.min(delay, MAX_DELAY));
    l.timer.unref();
  }

  private close(l: Live, code: number, reason: string): void {
    if (l.closed) return;
    this.forget(l);
    // a close reason is at most 123 bytes (RFC 6455)
    l.socket.close(code, Buffer.from(reason).subarray(0, 123).toString());
  }

  private forget(l: Live): void {
    l.closed = true;
    if (l.timer) clearTimeout(l.timer);
    this.live.delete(l);
  }
}

function keyConcerned(p: KeysInvalidatedPayload, t: TenantContext): boolean {
  return !!(
    (t.keyId && p.keyIds?.includes(t.keyId)) ||
    (t.appId && p.appIds?.includes(t.appId)) ||
    (t.accountId && p.accountIds?.includes(t.accountId)) ||
    (t.platformId && p.platformIds?.includes(t.platformId))
  );
}
