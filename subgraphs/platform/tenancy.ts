// Tenant scoping in ONE place: the MikroORM filter `platform`. It is on by default for accounts,
// apps and API keys, and its parameter is set once per request by SubgraphDefinition.scope(), so
// no query on those tables can forget it. (The only queries that switch it off are the gateway's
// internal key verification and usage recording, in api-keys/api-key.repository.ts.)
//
// Which platform: user and service callers name it in X-Platform (tenant.platformCode), resolved
// through a per-request DataLoader by code; API-key callers are bound to their key's platform
// (tenant.platformId, put there by the gateway from _verifyApiKey), whatever X-Platform they send.
import DataLoader from 'dataloader';
import type { EntityManager, Options } from '@mikro-orm/postgresql';
import { DomainError } from '../../lib/errors.js';
import type { TenantContext } from '../../lib/tenant.js';
import { PlatformEntity } from './platforms/platform.entity.js';

export const PLATFORM_FILTER = 'platform';
const SCOPED_ENTITIES = ['AccountEntity', 'AppEntity', 'ApiKeyEntity'];
SCOPED_ENTITIES.push('BlockLicenseEntity', 'BlockInstanceEntity', 'UserAccessEntity');
// account services and data transfers (issue 3, parts 7-8): every row names its platform too
SCOPED_ENTITIES.push(
  'CredentialEntity',
  'ExchangeEntity',
  'AccountDetailsEntity',
  'AccountStorageEntity',
  'NotificationSettingsEntity',
  'AccountEventEntity',
  'AppWebhookSecretEntity',
  'DataTransferEntity',
);
SCOPED_ENTITIES.push('SubscriptionEntity', 'SubscriptionEventEntity', 'InvoiceEntity');

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

  /**
   * MikroORM deep-copies filter parameters into every fork; returning `this` keeps one scope (and
   * one memoised platform lookup) per request, forks included.
   */
  clone(): this {
    return this;
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
    if (!platform) throw new DomainError('PLATFORM_NOT_FOUND', `Platform "${code}" not found`, { parameter: 'X-Platform' });
    return platform;
  }
}

interface PlatformFilterArgs {
  scope: PlatformScope;
}

export const platformFilters: NonNullable<Options['filters']> = {
  [PLATFORM_FILTER]: {
    // every scoped entity names its relation `platform`, so one condition fits all three
    cond: async (args: PlatformFilterArgs) => ({ platform: await args.scope.platformId() }),
    default: true,
    entity: SCOPED_ENTITIES,
  },
};

export function scopeToPlatform(em: EntityManager, tenant: TenantContext): void {
  em.setFilterParams(PLATFORM_FILTER, { scope: new PlatformScope(em, tenant) } satisfies PlatformFilterArgs);
}

/** Scope `em` to one given platform (the caller must already be authorised for it). */
export function scopeToFixedPlatform(em: EntityManager, tenant: TenantContext, platform: PlatformEntity): void {
  em.setFilterParams(PLATFORM_FILTER, { scope: new PlatformScope(em, tenant, platform) } satisfies PlatformFilterArgs);
}

/** The request's scope, as set by scopeToPlatform (context.ts exposes it as loaders.scope). */
export function platformScopeOf(em: EntityManager): PlatformScope {
  const args = em.getFilterParams<PlatformFilterArgs>(PLATFORM_FILTER);
  if (!args?.scope) throw new Error('platform scope not set: scopeToPlatform() must run before createLoaders()');
  return args.scope;
}
