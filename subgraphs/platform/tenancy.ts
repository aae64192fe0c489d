// The platform subgraph's tenant scope. Entities declare themselves platform-scoped where they are
// defined (@TenantScoped({ platformId: 'platform' })); lib/tenant-entity.ts derives the `tenant`
// filter from that, and SubgraphDefinition.scope() sets the request's platform here, so no query on
// those tables can forget it. (The queries that switch it off are named where they are: the
// gateway's internal key verification and usage recording, the public data-transfer flow, the
// billing job and the outbox worker.)
//
// Which platform: user and service callers name it in X-Platform (tenant.platformCode), resolved
// through a per-request DataLoader by code; a user token reaches it only through an operator
// record (the gateway's lookup: tenant.operatorPlatformId), a `platform` claim naming it or the
// super-admin scope (platforms/platform-access.ts), else it is PLATFORM_NOT_FOUND as if it did not
// exist. API-key callers are bound to their key's platform (tenant.platformId, put there by the
// gateway from _verifyApiKey), whatever X-Platform they send.
import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../lib/errors.js';
import type { TenantContext } from '../../lib/tenant.js';
import { setTenantScope, TenantScope, tenantScopeOf } from '../../lib/tenant-entity.js';
import { PlatformEntity } from './platforms/platform.entity.js';
import { reachesByHeader } from './platforms/platform-access.js';

export class PlatformScope {
  readonly platformByCode: DataLoader<string, PlatformEntity | null>;
  private current?: Promise<PlatformEntity>;
  private readonly fixed: boolean;

  /**
   * `fixed`: a scope for a platform named in the path (/platforms/:pid/accounts...), built by
   * scopeToFixedPlatform after the caller was authorised for it.
   */
  constructor(em: EntityManager, readonly tenant: TenantContext, fixed?: PlatformEntity) {
    this.fixed = !!fixed;
    if (fixed) this.current = Promise.resolve(fixed);
    this.platformByCode = new DataLoader(async (codes) => {
      // soft-deleted platforms are gone for X-Platform lookups (only /platforms/:id/restore sees them)
      const rows = await em.find(PlatformEntity, { code: { $in: [...codes] }, deletedAt: null });
      const byCode = new Map(rows.map((r) => [r.code, r]));
      return codes.map((c) => byCode.get(c) ?? null);
    });
  }

  /** The X-Platform platform; PLATFORM_REQUIRED when the header is absent, PLATFORM_NOT_FOUND when unknown. */
  currentPlatform(): Promise<PlatformEntity> {
    this.current ??= this.resolve();
    return this.current;
  }

  /** The platform id every account/app/key query of this request is limited to. */
  async platformId(): Promise<string> {
    if (this.fixed) return (await this.current!).id;
    if (this.tenant.kind === 'key' && this.tenant.platformId) return this.tenant.platformId;
    return (await this.currentPlatform()).id;
  }

  private async resolve(): Promise<PlatformEntity> {
    const code = this.tenant.platformCode?.trim();
    if (!code) throw new DomainError('PLATFORM_REQUIRED', 'The X-Platform header is required', { parameter: 'X-Platform' });
    const platform = await this.platformByCode.load(code);
    if (!platform || !reachesByHeader(this.tenant, platform)) throw new DomainError('PLATFORM_NOT_FOUND', `Platform "${code}" not found`, { parameter: 'X-Platform' });
    return platform;
  }
}

function tenantScope(scope: PlatformScope): TenantScope<PlatformScope> {
  // platformId() throws PLATFORM_REQUIRED / PLATFORM_NOT_FOUND itself, so `missing` is never reached
  const missing = () => new DomainError('PLATFORM_REQUIRED', 'The X-Platform header is required', { parameter: 'X-Platform' });
  return new TenantScope({ platformId: () => scope.platformId() }, missing, scope);
}

export function scopeToPlatform(em: EntityManager, tenant: TenantContext): void {
  setTenantScope(em, tenantScope(new PlatformScope(em, tenant)));
}

/** Scope `em` to one given platform (the caller must already be authorised for it). */
export function scopeToFixedPlatform(em: EntityManager, tenant: TenantContext, platform: PlatformEntity): void {
  setTenantScope(em, tenantScope(new PlatformScope(em, tenant, platform)));
}

/** The request's scope, as set by scopeToPlatform (context.ts exposes it as loaders.scope). */
export function platformScopeOf(em: EntityManager): PlatformScope {
  return tenantScopeOf<PlatformScope>(em).detail;
}
