// Tenancy, declared once on the entity.
//
// How to add a tenant-scoped entity:
//   - app data (catalog, ai, search): `class ProductEntity extends AppScopedEntity` (columns app_id
//     and environment, declared scoped by app and environment); nothing else to write. A table whose
//     primary key starts with the partition: `extends AppKeyedEntity` (the same two columns as the
//     key's first two).
//   - any other tenant column: put `@TenantScoped({ platformId: 'platform' })` on the class, mapping
//     each tenant key to the property that holds it (a plain column or a ManyToOne relation).
//   - list the entity in its SubgraphDefinition's `entities`, as for any entity. createOrm derives
//     the `tenant` filter from the declarations (tenantFilter below), on by default, and the
//     subgraph's `scope(em, tenant)` sets the request's values once (scopeToApp, or a TenantScope of
//     its own), so no ORM query can forget them. test/unit/lib.tenancy.test.ts fails for any entity
//     of any subgraph whose table has a tenant column (platform_id, account_id, app_id,
//     environment) but no declaration.
//   - raw SQL takes its tenant values from the request through tenantParams(ctx, ...keys), the
//     same values the filter uses; it throws the subgraph's error when the caller has none.
//   - an entity without tenant columns of its own (documents of an index, a transfer's audit rows)
//     is reached only through a scoped parent; a global catalog (plans, blocks) has no tenant.
import { Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { EntityManager, Options } from '@mikro-orm/postgresql';
import { DomainError } from './errors.js';
import type { Environment, TenantContext } from './tenant.js';

/** The values a row can be scoped by. */
export interface TenantValues {
  platformId: string;
  accountId: string;
  appId: string;
  environment: Environment;
}
export type TenantKey = keyof TenantValues;
export const TENANT_KEYS: readonly TenantKey[] = ['platformId', 'accountId', 'appId', 'environment'];
/** The database columns that carry a tenant key (what the enumeration test looks for). */
export const TENANT_COLUMNS: readonly string[] = ['platform_id', 'account_id', 'app_id', 'environment'];

/** tenant key → the entity property holding it */
export type TenantDeclaration = Partial<Record<TenantKey, string>>;

const declarations = new WeakMap<object, TenantDeclaration>();

/** Declares an entity class tenant-scoped: each key names the property that holds it. Subclasses inherit it. */
export function TenantScoped(keys: TenantDeclaration): ClassDecorator {
  if (Object.keys(keys).length === 0) throw new Error('TenantScoped needs at least one tenant key');
  return (target) => {
    declarations.set(target, { ...keys });
  };
}

/** The class's declaration, inherited from its base classes; undefined when not tenant-scoped. */
export function tenantDeclarationOf(cls: unknown): TenantDeclaration | undefined {
  for (let c = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const d = declarations.get(c);
    if (d) return d;
  }
  return undefined;
}

/** Rows of one app's data partition (app unique id + test/live environment). */
@TenantScoped({ appId: 'appId', environment: 'environment' })
export abstract class AppScopedEntity {
  @Index()
  @Property({ length: 64 })
  appId!: string;

  @Property({ length: 8 })
  environment!: Environment;
}

/**
 * Rows of one app's data partition whose primary key starts with the partition (every read names
 * it): the subclass declares the rest of the key after it.
 */
@TenantScoped({ appId: 'appId', environment: 'environment' })
export abstract class AppKeyedEntity {
  @PrimaryKey({ length: 64 })
  appId!: string;

  @PrimaryKey({ length: 8 })
  environment!: Environment;
}

type Resolver<K extends TenantKey> = () => TenantValues[K] | undefined | Promise<TenantValues[K] | undefined>;

/**
 * The request's tenant values, resolved lazily and once each (a platform is looked up by code only
 * when a query needs it). A value the caller does not have is undefined: the filter then matches no
 * row, and tenantParams throws `missing(key)`.
 */
export class TenantScope<D = undefined> {
  private readonly memo = new Map<TenantKey, Promise<string | undefined>>();

  constructor(
    private readonly resolvers: { [K in TenantKey]?: Resolver<K> },
    private readonly missing: (key: TenantKey) => Error,
    /** subgraph-specific state that travels with the scope (the platform's memoised lookups) */
    readonly detail: D,
  ) {}

  /** MikroORM deep-copies filter parameters into every fork: one scope per request, forks included. */
  clone(): this {
    return this;
  }

  provides(key: TenantKey): boolean {
    return this.resolvers[key] !== undefined;
  }

  /** The value, or undefined when the caller has none. */
  value<K extends TenantKey>(key: K): Promise<TenantValues[K] | undefined> {
    const resolve = this.resolvers[key] as Resolver<K> | undefined;
    if (!resolve) return Promise.reject(new Error(`tenant key ${key} is not provided by this subgraph's scope`));
    let p = this.memo.get(key);
    if (!p) {
      p = Promise.resolve().then(resolve);
      this.memo.set(key, p);
    }
    return p as Promise<TenantValues[K] | undefined>;
  }

  async require<K extends TenantKey>(key: K): Promise<TenantValues[K]> {
    const v = await this.value(key);
    if (v === undefined || v === '') throw this.missing(key);
    return v;
  }
}

export const TENANT_FILTER = 'tenant';

interface TenantFilterArgs {
  scope: TenantScope<unknown>;
}

type EntityClass = abstract new (...args: never[]) => object;

/**
 * The `tenant` filter of a set of entities, derived from their declarations: on by default, one
 * condition per declared key, compared with the request's TenantScope. Empty when none is declared.
 */
export function tenantFilter(entities: Options['entities']): NonNullable<Options['filters']> {
  const byName = new Map<string, TenantDeclaration>();
  for (const e of entities ?? []) {
    const d = tenantDeclarationOf(e);
    if (d) byName.set((e as EntityClass).name, d);
  }
  if (byName.size === 0) return {};
  return {
    [TENANT_FILTER]: {
      cond: async (args: TenantFilterArgs, _type: unknown, _em: unknown, _options: unknown, entityName?: string) => {
        const decl = entityName ? byName.get(entityName) : undefined;
        if (!decl) throw new Error(`tenant filter applied to an undeclared entity ${entityName}`);
        return tenantCondition(decl, args.scope);
      },
      default: true,
      entity: [...byName.keys()],
    },
  };
}

/** The filter condition of one declaration: each declared property equals the request's value ('' matches no row). */
export async function tenantCondition(decl: TenantDeclaration, scope: TenantScope<unknown>): Promise<Record<string, string>> {
  const cond: Record<string, string> = {};
  for (const [key, prop] of Object.entries(decl) as [TenantKey, string][]) cond[prop] = (await scope.value(key)) ?? '';
  return cond;
}

/** Set the request's tenant scope on `em` (the subgraph's `scope` calls this once per request). */
export function setTenantScope(em: EntityManager, scope: TenantScope<unknown>): void {
  em.setFilterParams(TENANT_FILTER, { scope } satisfies TenantFilterArgs);
}

/** The scope set on `em` by the subgraph's `scope` function. */
export function tenantScopeOf<D = unknown>(em: EntityManager): TenantScope<D> {
  const args = em.getFilterParams<TenantFilterArgs>(TENANT_FILTER);
  if (!args?.scope) throw new Error('tenant scope not set: the subgraph scope() must run first');
  return args.scope as TenantScope<D>;
}

/**
 * THE helper for raw SQL: the request's tenant values, the same the ORM filter compares. Throws the
 * subgraph's error (UNAUTHENTICATED without an app, PLATFORM_REQUIRED without X-Platform) when the
 * caller has no value for a key.
 */
export async function tenantParams<K extends TenantKey>(ctx: { em: EntityManager }, ...keys: K[]): Promise<Pick<TenantValues, K>> {
  const scope = tenantScopeOf(ctx.em);
  const out = {} as Pick<TenantValues, K>;
  for (const k of keys) out[k] = await scope.require(k);
  return out;
}

/** The app partition of a request: what catalog, ai and search rows are scoped by. */
export type AppPartition = Pick<TenantValues, 'appId' | 'environment'>;

/** tenantParams for the app subgraphs' partition. */
export function appPartition(ctx: { em: EntityManager }): Promise<AppPartition> {
  return tenantParams(ctx, 'appId', 'environment');
}

/** The scope of the app subgraphs: callers without an app (a user JWT, anonymous) match no app-scoped row. */
export function scopeToApp(em: EntityManager, tenant: TenantContext): void {
  const missing = () => new DomainError('UNAUTHENTICATED', 'An API key (X-App-Id + X-Api-Key) is required');
  // an app id without an environment is no partition: both come from the key, or neither
  const partition = tenant.appId && tenant.environment ? { appId: tenant.appId, environment: tenant.environment } : undefined;
  setTenantScope(em, new TenantScope({ appId: () => partition?.appId, environment: () => partition?.environment }, missing, undefined));
}
