// Who may read what: the roles each guarded GraphQL field declares (@Authorized on a query,
// mutation or field resolver), read from type-graphql's metadata of the given resolver classes.
// The subgraph kernel enforces them (subgraph.ts guardRoles); `npm run compose` writes the table of
// every subgraph to schema/field-access.json, so the REST bridge, the docs and the tests read the
// same declarations the subgraphs enforce, without loading subgraph code.
import 'reflect-metadata';
import { getMetadataStorage } from 'type-graphql';
import { SECRET_KEY } from './tenant.js';

/** `Type.field` → the roles its @Authorized declares (every one is needed). */
export type FieldAccess = Record<string, readonly string[]>;

interface Guarded {
  target: unknown;
  schemaName: string;
  roles?: unknown[];
}

/** Each guarded root field and field resolver of `classes`, with the GraphQL type it belongs to. */
export function guardedFields(classes: readonly unknown[]): { type: string; field: string; roles: string[] }[] {
  const meta = getMetadataStorage();
  const own = new Set(classes);
  const entries: [string | undefined, Guarded][] = [
    ...meta.queries.map((q): [string, Guarded] => ['Query', q]),
    ...meta.mutations.map((m): [string, Guarded] => ['Mutation', m]),
    // getObjectType() is the class; the GraphQL type may be named otherwise (@ObjectType('App') class AppRef)
    ...meta.fieldResolvers.map((f): [string | undefined, Guarded] => [meta.objectTypes.find((o) => o.target === f.getObjectType?.())?.name, f]),
  ];
  const out: { type: string; field: string; roles: string[] }[] = [];
  for (const [type, m] of entries) {
    if (!own.has(m.target) || !m.roles || !type) continue;
    out.push({ type, field: m.schemaName, roles: [...(m.roles as string[])] });
  }
  return out;
}

/** The table of the given resolver classes, keys sorted (a stable file). */
export function fieldAccess(classes: readonly unknown[]): FieldAccess {
  const table: Record<string, string[]> = {};
  for (const g of guardedFields(classes)) {
    const key = `${g.type}.${g.field}`;
    table[key] = [...new Set([...(table[key] ?? []), ...g.roles])].sort();
  }
  return Object.fromEntries(Object.entries(table).sort(([a], [b]) => a.localeCompare(b)));
}

/** The scopes an API key of each type can hold (CONTRACT.md, Authentication), with SECRET_KEY for a secret key. */
export const KEY_TYPE_ROLES = {
  secret: ['products:read', 'products:write', 'search:read', 'search:write', 'ai:read', 'ai:write', SECRET_KEY],
  publishable: ['products:read', 'search:read', 'ai:read'],
} as const;

export type KeyType = keyof typeof KEY_TYPE_ROLES;

/** Whether a key of `keyType` holding every scope its type allows passes `roles`. */
export function keyPasses(keyType: KeyType, roles: readonly string[] | undefined): boolean {
  const held: readonly string[] = KEY_TYPE_ROLES[keyType];
  return (roles ?? []).every((r) => held.includes(r));
}
