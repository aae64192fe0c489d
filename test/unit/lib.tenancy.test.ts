// Tenancy is declared on the entity (lib/tenant-entity.ts). This test enumerates every entity of
// every subgraph (scripts/subgraphs.ts, the registry of SubgraphDefinitions) from MikroORM's own
// metadata, so an entity added to any subgraph is checked without being named here: a table with a
// tenant column must be covered by the `tenant` filter, and the filter must compare each declared
// property with the request's value.
import { MikroORM, type EntityMetadata } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { SUBGRAPHS } from '../../scripts/subgraphs.js';
import { DomainError } from '../../lib/errors.js';
import type { TenantContext } from '../../lib/tenant.js';
import {
  TENANT_COLUMNS,
  TENANT_FILTER,
  tenantCondition,
  tenantDeclarationOf,
  tenantFilter,
  tenantParams,
  tenantScopeOf,
  type TenantKey,
} from '../../lib/tenant-entity.js';
import type { SubgraphDefinition } from '../../lib/subgraph.js';

const defs = Object.values(SUBGRAPHS) as SubgraphDefinition<any>[];
const orms = new Map<string, MikroORM>();

function ormOf(def: SubgraphDefinition<any>): MikroORM {
  let orm = orms.get(def.name);
  if (!orm) {
    // the synchronous constructor discovers metadata without connecting
    orm = new MikroORM({
      clientUrl: 'postgres://metadata-only@127.0.0.1:1/none',
      schema: def.dbSchema,
      entities: def.entities,
      metadataProvider: ReflectMetadataProvider,
      filters: { ...tenantFilter(def.entities), ...def.filters },
      allowGlobalContext: true,
    });
    orms.set(def.name, orm);
  }
  return orm;
}

function entitiesOf(def: SubgraphDefinition<any>): EntityMetadata[] {
  return [...ormOf(def).getMetadata().getAll().values()].filter((m) => !m.abstract && !m.embeddable && m.class);
}

function tenantColumnsOf(meta: EntityMetadata): string[] {
  return meta.props.flatMap((p) => p.fieldNames ?? []).filter((f) => TENANT_COLUMNS.includes(f));
}

const apiKeyCaller: TenantContext = {
  kind: 'key',
  requestId: 'req-1',
  scopes: [],
  appId: 'app_1',
  environment: 'test',
  platformId: 'plt_1',
  platformCode: 'acme',
};

afterAll(async () => {
  for (const orm of orms.values()) await orm.close(true).catch(() => undefined);
});

test('every subgraph is enumerated, each with entities', () => {
  expect(defs.map((d) => d.name).sort()).toEqual(['ai', 'catalog', 'platform', 'search']);
  for (const def of defs) expect(entitiesOf(def).length).toBeGreaterThan(0);
});

describe.each(defs.map((d) => [d.name, d] as const))('%s', (_name, def) => {
  test('every table with a tenant column is covered by the tenant filter', () => {
    const filter = ormOf(def).config.get('filters')[TENANT_FILTER];
    const covered = new Set(((filter?.entity ?? []) as string[]).map(String));
    const uncovered = entitiesOf(def)
      .filter((m) => tenantColumnsOf(m).length > 0)
      .filter((m) => !covered.has(m.className) || !tenantDeclarationOf(m.class))
      .map((m) => `${m.className} (${m.tableName}: ${tenantColumnsOf(m).join(', ')})`);
    expect(uncovered).toEqual([]);
  });

  test('each declaration names real properties, and the filter compares every one with the request', async () => {
    const em = ormOf(def).em.fork();
    def.scope(em, apiKeyCaller);
    const scope = tenantScopeOf(em);
    for (const meta of entitiesOf(def)) {
      const decl = tenantDeclarationOf(meta.class);
      if (!decl) continue;
      for (const [key, prop] of Object.entries(decl) as [TenantKey, string][]) {
        expect({ entity: meta.className, prop, exists: !!meta.properties[prop as never] }).toEqual({ entity: meta.className, prop, exists: true });
        expect({ entity: meta.className, key, provided: scope.provides(key) }).toEqual({ entity: meta.className, key, provided: true });
      }
      const cond = await tenantCondition(decl, scope);
      expect(Object.keys(cond).sort()).toEqual(Object.values(decl).sort());
    }
  });
});

test('app subgraphs: the filter compares app and environment; a caller without an app matches nothing and raw SQL is refused', async () => {
  const { catalog } = SUBGRAPHS;
  const em = ormOf(catalog!).em.fork();
  catalog!.scope(em, apiKeyCaller);
  expect(await tenantParams({ em }, 'appId', 'environment')).toEqual({ appId: 'app_1', environment: 'test' });
  const filter = ormOf(catalog!).config.get('filters')[TENANT_FILTER]!;
  const cond = typeof filter.cond === 'function' ? await filter.cond({ scope: tenantScopeOf(em) }, 'read', em, undefined, 'ProductEntity') : filter.cond;
  expect(cond).toEqual({ appId: 'app_1', environment: 'test' });

  const anonymous = ormOf(catalog!).em.fork();
  catalog!.scope(anonymous, { kind: 'user', requestId: 'r', scopes: [], userId: 'usr_1' });
  const none = typeof filter.cond === 'function' ? await filter.cond({ scope: tenantScopeOf(anonymous) }, 'read', anonymous, undefined, 'ProductEntity') : null;
  expect(none).toEqual({ appId: '', environment: '' });
  await expect(tenantParams({ em: anonymous }, 'appId')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  await expect(tenantParams({ em: anonymous }, 'appId')).rejects.toBeInstanceOf(DomainError);
});

test('platform: an API-key caller is bound to its key platform; raw SQL gets the same id', async () => {
  const { platform } = SUBGRAPHS;
  const em = ormOf(platform!).em.fork();
  platform!.scope(em, { ...apiKeyCaller, platformCode: 'someone-else' });
  expect(await tenantParams({ em }, 'platformId')).toEqual({ platformId: 'plt_1' });
  // a fork shares the request's scope (one platform lookup per request)
  expect(tenantScopeOf(em.fork())).toBe(tenantScopeOf(em));
});

test('platform: a user caller without X-Platform gets PLATFORM_REQUIRED from the helper', async () => {
  const { platform } = SUBGRAPHS;
  const em = ormOf(platform!).em.fork();
  platform!.scope(em, { kind: 'user', requestId: 'r', scopes: [], userId: 'usr_1' });
  await expect(tenantParams({ em }, 'platformId')).rejects.toMatchObject({ code: 'PLATFORM_REQUIRED' });
});
