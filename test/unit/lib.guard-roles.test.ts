// @Authorized scopes in the subgraph kernel (lib/subgraph.ts guardRoles): checked before a query and
// before a field resolver, synchronously (a list of guarded objects stays off graphql-js's promise
// path), and a role on a plain @Field stops the build instead of guarding nothing.
import 'reflect-metadata';
import { execute, parse } from 'graphql';
import { Authorized, Field, FieldResolver, ID, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { buildFederatedSchema, requireRoles, type SubgraphDefinition } from '../../lib/subgraph.js';
import { OPERATOR, SECRET_KEY, type TenantContext } from '../../lib/tenant.js';

@ObjectType('GuardThing')
class GuardThing {
  @Field(() => ID) id!: string;
}

@Resolver(() => GuardThing)
class GuardThingResolver {
  @Authorized('things:read')
  @Query(() => [GuardThing])
  guardThings(): GuardThing[] {
    return [{ id: 'a' }, { id: 'b' }];
  }

  @Authorized('things:secret')
  @FieldResolver(() => String)
  secret(@Root() t: GuardThing): string {
    return `secret of ${t.id}`;
  }
}

@ObjectType('GuardPlain')
class GuardPlain {
  @Authorized('things:read')
  @Field()
  name!: string;
}

@Resolver(() => GuardPlain)
class GuardPlainResolver {
  @Query(() => GuardPlain)
  guardPlain(): GuardPlain {
    return { name: 'x' };
  }
}

const def = (resolvers: SubgraphDefinition['resolvers']) => ({ name: 'catalog', resolvers }) as unknown as SubgraphDefinition;
const key = (scopes: string[]): TenantContext => ({ kind: 'key', requestId: 'r', scopes, appId: 'app', environment: 'test' }) as TenantContext;

describe('guardRoles', () => {
  it('refuses a query without its scope and a field resolver without its own', async () => {
    const schema = await buildFederatedSchema(def([GuardThingResolver]));
    const run = (scopes: string[]) => execute({ schema, document: parse('{ guardThings { id secret } }'), contextValue: { tenant: key(scopes) } });

    const none = (await run([])) as { errors?: readonly { message: string; path?: readonly unknown[] }[] };
    expect(none.errors?.[0]?.message).toMatch(/things:read/);

    const readOnly = (await run(['things:read'])) as { data?: any; errors?: readonly { message: string; path?: readonly unknown[] }[] };
    // the first refused (non-null) field nulls the list, as graphql-js completes it
    expect(readOnly.errors?.map((e) => e.path)).toEqual([['guardThings', 0, 'secret']]);
    expect(readOnly.errors?.[0]?.message).toMatch(/things:secret/);
    expect(readOnly.data).toBeNull();

    const both = await run(['things:read', 'things:secret']);
    expect(both.errors).toBeUndefined();
    expect(both.data).toEqual({ guardThings: [{ id: 'a', secret: 'secret of a' }, { id: 'b', secret: 'secret of b' }] });
  });

  it('answers synchronously when every resolver is (no promise per guarded field)', async () => {
    const schema = await buildFederatedSchema(def([GuardThingResolver]));
    const r = execute({ schema, document: parse('{ guardThings { id secret } }'), contextValue: { tenant: key(['things:read', 'things:secret']) } });
    expect(r).not.toBeInstanceOf(Promise);
  });

  it('stops the build for a role on a plain field', async () => {
    await expect(buildFederatedSchema(def([GuardPlainResolver]))).rejects.toThrow(/GuardPlain\.name/);
  });
});

describe('pseudo-roles', () => {
  const user = (scopes: string[]): TenantContext => ({ kind: 'user', requestId: 'r', scopes, userId: 'u' }) as TenantContext;
  const code = (f: () => unknown) => {
    try {
      f();
      return 'ok';
    } catch (e) {
      return (e as { code?: string }).code;
    }
  };

  it('OPERATOR: a JWT with a platform scope (or super-admin) and the gateway pass; any API key and a scopeless user token do not', () => {
    expect(code(() => requireRoles(user(['platform:read']), [OPERATOR]))).toBe('ok');
    expect(code(() => requireRoles(user(['platform:superadmin']), [OPERATOR]))).toBe('ok');
    expect(code(() => requireRoles({ kind: 'service', requestId: 'r', scopes: [] }, [OPERATOR]))).toBe('ok');
    expect(code(() => requireRoles({ ...key(['products:read', 'products:write']), keyType: 'secret' }, [OPERATOR]))).toBe('INSUFFICIENT_SCOPE');
    expect(code(() => requireRoles(user(['identities:write']), [OPERATOR]))).toBe('INSUFFICIENT_SCOPE');
  });

  it('SECRET_KEY: a secret key passes with the scope, a publishable key never does', () => {
    expect(code(() => requireRoles({ ...key(['products:read']), keyType: 'secret' }, ['products:read', SECRET_KEY]))).toBe('ok');
    expect(code(() => requireRoles({ ...key(['products:read']), keyType: 'publishable' }, ['products:read', SECRET_KEY]))).toBe('INSUFFICIENT_SCOPE');
    expect(code(() => requireRoles({ ...key([]), keyType: 'secret' }, ['products:read', SECRET_KEY]))).toBe('INSUFFICIENT_SCOPE');
  });
});
