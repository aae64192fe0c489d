// Which API key types a route answers, from the roles of the fields its operation selects
// (schema/field-access.json, the declarations the subgraphs enforce): a route selecting a field that
// needs a secret key refuses a publishable key as a whole. OpenAPI states it; the security suite
// tries it (docs/security.md, "What an API key reads").
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { getNamedType, isInterfaceType, isObjectType, Kind, parse, type FragmentDefinitionNode, type GraphQLNamedType, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import { keyPasses, type FieldAccess, type KeyType } from '../lib/field-access.js';
import type { Route } from './types.js';

export const KEY_TYPES: readonly KeyType[] = ['secret', 'publishable'];

/** Written by `npm run compose` beside the supergraph (scripts/supergraph.ts emitFieldAccess). */
export const FIELD_ACCESS_FILE = resolve(import.meta.dirname, '..', 'schema', 'field-access.json');

let cache: FieldAccess | undefined;

/** The committed table of every guarded field's roles (read once per process). */
export function loadFieldAccess(): FieldAccess {
  return (cache ??= JSON.parse(readFileSync(FIELD_ACCESS_FILE, 'utf8')) as FieldAccess);
}

/** Each `Type.field` an operation selects, with the roles of every field on each path to it (its own included). */
export function selectedPaths(schema: GraphQLSchema, source: string, access: FieldAccess): Map<string, string[][]> {
  const doc = parse(source);
  const fragments = new Map(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const out = new Map<string, string[][]>();
  const walk = (set: SelectionSetNode, parent: GraphQLNamedType, roles: string[]): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragments.get(sel.name.value)!;
        walk(f.selectionSet, schema.getType(f.typeCondition.name.value)!, roles);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(sel.selectionSet, sel.typeCondition ? schema.getType(sel.typeCondition.name.value)! : parent, roles);
      } else if (!sel.name.value.startsWith('__') && (isObjectType(parent) || isInterfaceType(parent))) {
        const field = parent.getFields()[sel.name.value];
        if (!field) continue;
        const key = `${parent.name}.${sel.name.value}`;
        const here = [...roles, ...(access[key] ?? [])];
        out.set(key, [...(out.get(key) ?? []), here]);
        if (sel.selectionSet) walk(sel.selectionSet, getNamedType(field.type), here);
      }
    }
  };
  for (const d of doc.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = d.operation === 'query' ? schema.getQueryType() : d.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
    if (root) walk(d.selectionSet, root, []);
  }
  return out;
}

/** The key types a route answers (none for a platform route): those passing every field it selects. */
export function routeKeyTypes(route: Route, paths: Map<string, string[][]>): KeyType[] {
  if (route.auth === 'jwt+platform' || route.auth === 'none') return [];
  const all = [...paths.values()].flat();
  return KEY_TYPES.filter((k) => all.every((roles) => keyPasses(k, roles)));
}
