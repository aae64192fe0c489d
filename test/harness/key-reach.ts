// What an API key can read, worked out from the contract: the composed supergraph (every type and
// field, entity fields of every subgraph merged into one type) and schema/field-access.json (the
// roles each guarded field declares, as the subgraphs enforce them). A field is readable by a key
// when the key passes its roles and the roles of every field on a path to it from a root field.
// The REST side: which fields each route's operation selects, and which key types may call it.
import {
  getNamedType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  isUnionType,
  Kind,
  parse,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { loadApiSchema } from '../../rest-bridge/api-schema.js';
import { loadOperations } from '../../rest-bridge/operations.js';
import { KEY_TYPES, loadFieldAccess, routeKeyTypes, selectedPaths } from '../../rest-bridge/key-types.js';
import type { Route } from '../../rest-bridge/types.js';
import { keyPasses, type FieldAccess, type KeyType } from '../../lib/field-access.js';
import { OPERATOR, SECRET_KEY } from '../../lib/tenant.js';

export { KEY_TYPES, loadFieldAccess };

/** `Type.field` → the shortest path a key of one type reads it by (`currentApp.account.platform`). */
export type Reach = Map<string, string>;

/** Object types a field's named type stands for (an interface or union: each possible type). */
function objectTypesOf(schema: GraphQLSchema, t: GraphQLNamedType): string[] {
  if (isObjectType(t)) return [t.name];
  if (isInterfaceType(t) || isUnionType(t)) return schema.getPossibleTypes(t).map((p) => p.name);
  return [];
}

/**
 * The fields of the object and interface types reachable from Query, breadth first, each type once
 * (with the state it was first reached with). `visit` sees a field (`Type.field`) with its type's
 * state; `follow(next)` walks on into the field's type with `next`; returning true ends the walk.
 */
function walkFields<S>(
  schema: GraphQLSchema,
  start: S,
  visit: (key: string, name: string, f: GraphQLField<unknown, unknown>, state: S, follow: (next: S) => void) => boolean | void,
): void {
  const queue: { type: string; state: S }[] = [{ type: schema.getQueryType()!.name, state: start }];
  const seen = new Set<string>();
  while (queue.length) {
    const { type, state } = queue.shift()!;
    if (seen.has(type)) continue;
    seen.add(type);
    const t = schema.getType(type);
    if (!isObjectType(t) && !isInterfaceType(t)) continue;
    for (const [name, f] of Object.entries(t.getFields())) {
      const follow = (next: S) => objectTypesOf(schema, getNamedType(f.type)).forEach((n) => queue.push({ type: n, state: next }));
      if (visit(`${type}.${name}`, name, f, state, follow)) return;
    }
  }
}

/**
 * Breadth first from the Query root fields the key passes, through every field it passes. (Mutation
 * results are what the caller just wrote; what they name is reachable from Query too.)
 */
export function keyReach(schema: GraphQLSchema, access: FieldAccess, keyType: KeyType): Reach {
  const reach: Reach = new Map();
  walkFields(schema, '', (key, name, _f, path, follow) => {
    if (name.startsWith('_') || !keyPasses(keyType, access[key])) return;
    const at = path ? `${path}.${name}` : name;
    if (!reach.has(key)) reach.set(key, at);
    follow(at);
  });
  return reach;
}

/** The REST side of every route: what its operation selects, and the key types that may call it. */
export interface RestRead {
  route: Route;
  /** a query (a read), not a mutation */
  read: boolean;
  /** each selected `Type.field` with the roles of each path it is selected on */
  paths: Map<string, string[][]>;
  /** key types the route answers (none for a platform route; a key type failing any selected field is refused the whole route) */
  keyTypes: KeyType[];
}

export function restReads(routes: readonly Route[], access: FieldAccess, schema: GraphQLSchema = loadApiSchema()): RestRead[] {
  const ops = loadOperations();
  return routes.map((route) => {
    const op = ops.get(route.operation);
    if (!op) throw new Error(`${route.method} ${route.path}: no operation ${route.operation}`);
    const paths = selectedPaths(schema, op.source, access);
    const keyTypes = route.auth === 'none' ? [...KEY_TYPES] : routeKeyTypes(route, paths);
    const read = parse(op.source).definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'query');
    return { route, read, paths, keyTypes };
  });
}

/**
 * The read routes that serve `field`, and whether every one refuses it to `keyType`: a platform
 * route, or a route where each path to the field has a field the key does not pass. (A route
 * refused only because of another field it selects does not count as refusing this one.)
 */
export function restRefuses(reads: readonly RestRead[], field: string, keyType: KeyType): { routes: RestRead[]; refused: boolean } {
  const routes = reads.filter((r) => r.read && r.paths.has(field));
  const refuses = (r: RestRead) => r.route.auth === 'jwt+platform' || r.paths.get(field)!.every((roles) => !keyPasses(keyType, roles));
  return { routes, refused: routes.length > 0 && routes.every(refuses) };
}

/** Types a field declaring OPERATOR returns: operator data, whichever path leads to them. */
export function operatorOnlyTypes(schema: GraphQLSchema, access: FieldAccess): Set<string> {
  const out = new Set<string>();
  for (const [key, roles] of Object.entries(access)) {
    if (!roles.includes(OPERATOR)) continue;
    const [type, name] = key.split('.');
    const t = schema.getType(type);
    const f = isObjectType(t) || isInterfaceType(t) ? t.getFields()[name] : undefined;
    if (!f) continue;
    const target = getNamedType(f.type);
    if (isObjectType(target) || isInterfaceType(target)) out.add(target.name);
  }
  return out;
}

/** What a key of `keyType` reads although it should not: each as `Type.field (path): why`. */
export function keyLeaks(schema: GraphQLSchema, access: FieldAccess, reads: readonly RestRead[], keyType: KeyType, allowed: ReadonlySet<string>): string[] {
  const operatorTypes = operatorOnlyTypes(schema, access);
  const out: string[] = [];
  for (const [field, path] of keyReach(schema, access, keyType)) {
    const type = field.split('.')[0];
    if (operatorTypes.has(type)) out.push(`${field} (${path}): ${type} is operator data (a field returning it declares ${OPERATOR})`);
    else if (!allowed.has(field)) {
      const { routes, refused } = restRefuses(reads, field, keyType);
      if (refused) out.push(`${field} (${path}): REST serves it only to others (${routes.map((r) => `${r.route.method} ${r.route.path}`).join(', ')})`);
    }
  }
  return out;
}

/** One generated GraphQL row: a key type, a field it must be refused, and the query that reaches it. */
export interface GuardedRow {
  field: string;
  keyType: KeyType;
  /** field names from the root to `field` */
  path: string[];
  /** the path up to the first field the key type does not pass, where the refusal must be */
  refusedAt: string[];
  query: string;
}

/** A value for a required argument (fixtures by name, a plain value by type); undefined: no path through it. */
export type ArgValue = (name: string, typeName: string) => string | undefined;

/**
 * For every field declaring SECRET_KEY (refused to publishable keys) or OPERATOR (refused to every
 * key): the shortest path from a Query root the key passes, through fields it passes where one
 * exists (so the refusal is at the field itself), else through any field (the refusal is earlier).
 */
export function guardedRows(schema: GraphQLSchema, access: FieldAccess, argValue: ArgValue): GuardedRow[] {
  const rows: GuardedRow[] = [];
  for (const [field, roles] of Object.entries(access)) {
    const refusedTo = KEY_TYPES.filter((k) => !keyPasses(k, roles) && (roles.includes(OPERATOR) || roles.includes(SECRET_KEY)) && keyPasses(k, roles.filter((r) => r !== OPERATOR && r !== SECRET_KEY)));
    for (const keyType of refusedTo) {
      const found = shortestPath(schema, access, field, keyType, argValue, true) ?? shortestPath(schema, access, field, keyType, argValue, false);
      if (!found) throw new Error(`${field}: no path from a Query root a ${keyType} key passes (add an argument fixture?)`);
      const names = found.map((s) => s.name);
      const firstRefused = found.findIndex((s) => !keyPasses(keyType, access[s.key]));
      rows.push({ field, keyType, path: names, refusedAt: names.slice(0, firstRefused + 1), query: `{ ${render(found, 0)} }` });
    }
  }
  return rows;
}

interface Step {
  key: string;
  name: string;
  args: string;
  leaf: boolean;
}

function render(steps: Step[], i: number): string {
  const s = steps[i];
  const inner = i + 1 < steps.length ? render(steps, i + 1) : s.leaf ? '' : '__typename';
  return `${s.name}${s.args}${inner ? ` { ${inner} }` : ''}`;
}

function shortestPath(schema: GraphQLSchema, access: FieldAccess, target: string, keyType: KeyType, argValue: ArgValue, onlyPassing: boolean): Step[] | undefined {
  let found: Step[] | undefined;
  walkFields<Step[]>(schema, [], (key, name, f, steps, follow) => {
    if (name.startsWith('_')) return;
    const args = f.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined).map((a) => [a.name, argValue(a.name, getNamedType(a.type).name)] as const);
    if (args.some(([, v]) => v === undefined)) return;
    const step: Step = { key, name, args: args.length ? `(${args.map(([n, v]) => `${n}: ${v}`).join(', ')})` : '', leaf: !(isObjectType(getNamedType(f.type)) || isInterfaceType(getNamedType(f.type)) || isUnionType(getNamedType(f.type))) };
    if (key === target) {
      found = [...steps, step];
      return true;
    }
    const passes = keyPasses(keyType, access[key]);
    if ((steps.length === 0 || onlyPassing) && !passes) return; // the root must be one the key calls
    follow([...steps, step]);
  });
  return found;
}
