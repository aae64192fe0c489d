// Rows that belong to one app's data partition (app unique id + test/live environment).
// The `tenant` filter is on by default for every such entity; the subgraph context sets its
// parameters once per request (scopeToApp), so no query can forget it.
import { Index, Property } from '@mikro-orm/decorators/legacy';
import type { EntityManager, Options } from '@mikro-orm/postgresql';
import type { Environment, TenantContext } from './tenant.js';

export abstract class AppScopedEntity {
  @Index()
  @Property({ length: 64 })
  appId!: string;

  @Property({ length: 8 })
  environment!: Environment;
}

export function appTenantFilter(entities: string[]): NonNullable<Options['filters']> {
  return {
    tenant: {
      cond: (args: { appId: string; environment: Environment }) => ({ appId: args.appId, environment: args.environment }),
      default: true,
      entity: entities,
    },
  };
}

/** Callers without an app (a user JWT, anonymous) match no app-scoped row. */
export function scopeToApp(em: EntityManager, tenant: TenantContext): void {
  em.setFilterParams('tenant', { appId: tenant.appId ?? '', environment: tenant.environment ?? 'live' });
}
