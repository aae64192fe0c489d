// Synchronous parameters (lib/resolver-params.ts): a resolver whose args are scalars or enums is called
// directly, so a list of objects with such a field resolver stays off graphql-js's promise path
// (type-graphql's own handler makes every @Arg async); input-type args and a root that is not yet an
// instance of the declared class keep type-graphql's handler, with its conversions.
import 'reflect-metadata';
import { execute, parse } from 'graphql';
import { Arg, Ctx, Field, FieldResolver, ID, InputType, Int, ObjectType, Query, registerEnumType, Resolver, Root } from 'type-graphql';
import { buildFederatedSchema, type SubgraphDefinition } from '../../lib/subgraph.js';

enum ParamShade {
  Light = 'light',
  Dark = 'dark',
}
registerEnumType(ParamShade, { name: 'ParamShade' });

@ObjectType('ParamThing')
class ParamThing {
  @Field(() => ID) id!: string;
  tags!: string[];
}

@InputType('ParamFilter')
class ParamFilter {
  @Field() prefix!: string;
  startsWith(s: string): boolean {
    return s.startsWith(this.prefix);
  }
}

const things = (): ParamThing[] => [Object.assign(new ParamThing(), { id: 'a', tags: ['x', 'y', 'z'] }), Object.assign(new ParamThing(), { id: 'b', tags: ['w'] })];

@Resolver(() => ParamThing)
class ParamThingResolver {
  @Query(() => [ParamThing])
  paramThings(@Arg('shade', () => ParamShade, { defaultValue: ParamShade.Light }) shade: ParamShade, @Ctx() ctx: { seen: string[] }): ParamThing[] {
    ctx.seen.push(shade);
    return things();
  }

  @Query(() => [ParamThing], { description: 'plain objects as roots: type-graphql converts them, so its handler runs' })
  plainRoots(): ParamThing[] {
    return [{ id: 'p', tags: ['q'] }];
  }

  @Query(() => [String])
  filtered(@Arg('filter', () => ParamFilter) filter: ParamFilter): string[] {
    // an instance of the input class (its method works): type-graphql converted it
    return ['apple', 'banana', 'avocado'].filter((s) => filter.startsWith(s));
  }

  @FieldResolver(() => [String])
  firstTags(@Root() t: ParamThing, @Arg('first', () => Int, { defaultValue: 2 }) first: number): string[] {
    return t.tags.slice(0, first);
  }
}

const def = { name: 'catalog', resolvers: [ParamThingResolver] } as unknown as SubgraphDefinition;

describe('plainParamResolvers', () => {
  it('calls resolvers with scalar and enum args directly: the answer is synchronous', async () => {
    const schema = await buildFederatedSchema(def);
    const ctx = { seen: [] as string[] };
    const r = execute({ schema, document: parse('{ paramThings(shade: Dark) { id firstTags(first: 1) all: firstTags(first: 5) two: firstTags } }'), contextValue: ctx });
    expect(r).not.toBeInstanceOf(Promise);
    expect(r).toEqual({
      data: {
        paramThings: [
          { id: 'a', firstTags: ['x'], all: ['x', 'y', 'z'], two: ['x', 'y'] },
          { id: 'b', firstTags: ['w'], all: ['w'], two: ['w'] },
        ],
      },
    });
    expect(ctx.seen).toEqual(['dark']);
  });

  it('keeps type-graphql for input-type args (converted to the input class)', async () => {
    const schema = await buildFederatedSchema(def);
    expect(await execute({ schema, document: parse('{ filtered(filter: { prefix: "a" }) }'), contextValue: {} })).toEqual({ data: { filtered: ['apple', 'avocado'] } });
  });

  it('keeps type-graphql for a root that is not an instance of the declared class', async () => {
    const schema = await buildFederatedSchema(def);
    expect(await execute({ schema, document: parse('{ plainRoots { id firstTags } }'), contextValue: {} })).toEqual({ data: { plainRoots: [{ id: 'p', firstTags: ['q'] }] } });
  });
});
