// Everything the bridge knows about a resource's fields comes from the composed GraphQL schema,
// resolved once at start-up for every route row:
//  - the request body: attribute names (naming.ts), types, which are required, which are free-form
//    JSON (a JSON/JSONObject scalar) and which are structured (an input object), from the BodySpec's
//    source (`input`, `args` or `fieldsOf`, see types.ts);
//  - the response: which values of the operation's result are free-form JSON (their keys are data,
//    never renamed), from the operation's selection typed against the schema;
//  - the OpenAPI schemas of both.
// A row whose body source does not match its operation stops start-up with one line naming it.
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  typeFromAST,
  type DocumentNode,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLType,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { EXTRA_ATTRIBUTES_FIELD } from '../lib/extra-attributes.js';
import type { FreeFormTree } from './jsonapi.js';
import { deriveLinks, type RouteLinks } from './resource-links.js';
import { eachField, operationOf, walkOf, type Walk } from './selection.js';
import { withJsonShape } from './json-shapes.js';
import { restName } from './naming.js';
import type { Operation } from './operations.js';
import type { AttrField, AttrFields, AttrSpec, ResolvedBody, Route } from './types.js';

export type JsonSchema = Record<string, unknown>;
export { eachField, operationOf, walkOf, type Walk };

/** How each GraphQL scalar reads on REST. A scalar missing here stops start-up (decide it once, here). */
const SCALARS: Record<string, AttrSpec> = {
  String: { kind: 'scalar', type: 'string' },
  ID: { kind: 'scalar', type: 'string' },
  Int: { kind: 'scalar', type: 'integer' },
  Float: { kind: 'scalar', type: 'number' },
  Boolean: { kind: 'scalar', type: 'boolean' },
  DateTimeISO: { kind: 'scalar', type: 'string', format: 'date-time' },
  JSON: { kind: 'json' },
  JSONObject: { kind: 'json', schema: { type: 'object', additionalProperties: true } },
};

function scalarSpec(name: string, where: string): AttrSpec {
  const s = SCALARS[name];
  if (!s) throw new Error(`${where}: the GraphQL scalar ${name} has no REST type (add it to SCALARS in rest-bridge/derive.ts)`);
  return s;
}

/** Fields hidden from the API schema (@inaccessible) are internal: never accepted from REST. */
function inaccessible(f: GraphQLInputField | GraphQLField<unknown, unknown>): boolean {
  return !!f.astNode?.directives?.some((d) => d.name.value === 'inaccessible');
}

type Composite = GraphQLInputObjectType | GraphQLObjectType | GraphQLInterfaceType;

/**
 * The REST type of a GraphQL type. `nested: 'json'` makes object values free-form (used where the
 * operation takes a JSON scalar, so the service sees nested keys as the client wrote them).
 */
export function specOf(type: GraphQLType, where: string, nested: 'structured' | 'json' = 'structured', seen: readonly string[] = []): AttrSpec {
  const t = getNullableType(type);
  if (isListType(t)) return { kind: 'list', items: specOf(t.ofType, where, nested, seen) };
  if (isScalarType(t)) return scalarSpec(t.name, where);
  if (isEnumType(t)) return { kind: 'scalar', type: 'string', enum: t.getValues().map((v) => v.name) };
  if (isInputObjectType(t) || isObjectType(t) || isInterfaceType(t)) {
    if (nested === 'json') return { kind: 'json', schema: { type: 'object', additionalProperties: true } };
    if (seen.includes(t.name)) throw new Error(`${where}: ${t.name} contains itself; a REST body cannot describe it`);
    return { kind: 'object', fields: fieldsOfType(t, where, nested, [...seen, t.name]) };
  }
  throw new Error(`${where}: ${String(t)} cannot be a REST attribute`);
}

/** The fields of an input (or output) type as REST attributes, by REST name. */
export function fieldsOfType(t: Composite, where: string, nested: 'structured' | 'json' = 'structured', seen: readonly string[] = [t.name]): AttrFields {
  const out: AttrFields = {};
  for (const f of Object.values(t.getFields())) {
    if (inaccessible(f)) continue;
    const required = isInputObjectType(t) && isNonNullType(f.type) && (f as GraphQLInputField).defaultValue === undefined;
    out[restName(f.name)] = field(f.name, withJsonShape(specOf(f.type, `${where}.${f.name}`, nested, seen), `${t.name}.${f.name}`), required, f.description);
  }
  return out;
}

function field(graphql: string, spec: AttrSpec, required: boolean, description?: string | null): AttrField {
  return { graphql, spec, required, ...(description ? { description } : {}) };
}

/** `Mutation.deleteIndexDocuments(documentIds:)`: the root field argument the variable is passed to. */
function argCoordinate(op: OperationDefinitionNode, variable: string): string {
  const root = op.operation === 'mutation' ? 'Mutation' : op.operation === 'subscription' ? 'Subscription' : 'Query';
  for (const s of op.selectionSet.selections) {
    if (s.kind !== Kind.FIELD) continue;
    const arg = s.arguments?.find((a) => a.value.kind === Kind.VARIABLE && a.value.name.value === variable);
    if (arg) return `${root}.${s.name.value}(${arg.name.value}:)`;
  }
  return `${root}.?(${variable}:)`;
}

/** A route's BodySpec resolved against its operation's variables and the schema. */
export function resolveBody(route: Route, op: OperationDefinitionNode, schema: GraphQLSchema): ResolvedBody | undefined {
  const b = route.body;
  if (!b) return undefined;
  const where = `route ${route.method} ${route.path} (${route.operation})`;
  const sources = [b.input, b.args, b.fieldsOf].filter((x) => x !== undefined).length;
  if (sources !== 1) throw new Error(`${where}: body needs exactly one of input, args, fieldsOf`);
  const vars = new Map((op.variableDefinitions ?? []).map((v) => [v.variable.name.value, v]));
  const varType = (name: string) => {
    const v = vars.get(name);
    if (!v) throw new Error(`${where}: the operation declares no $${name}`);
    const t = typeFromAST(schema, v.type as never) as GraphQLType | undefined;
    if (!t) throw new Error(`${where}: $${name} has a type the schema does not know`);
    return { t, required: v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue };
  };
  if (b.input !== undefined) {
    const t = getNullableType(varType(b.input).t);
    if (!isInputObjectType(t)) throw new Error(`${where}: $${b.input} is not an input object`);
    return withExtra({ type: b.type, fields: fieldsOfType(t, t.name) });
  }
  if (b.args) {
    const fields: AttrFields = {};
    for (const name of b.args) {
      const { t, required } = varType(name);
      const spec = withJsonShape(specOf(t, `${where} $${name}`), argCoordinate(op, name));
      fields[restName(name)] = field(name, spec, required || !!b.required?.includes(restName(name)));
    }
    const unknown = (b.required ?? []).filter((n) => !fields[n]);
    if (unknown.length) throw new Error(`${where}: required names ${unknown.join(', ')}, not among the args`);
    return { type: b.type, fields };
  }
  const t = schema.getType(b.fieldsOf!);
  if (!t || !(isInputObjectType(t) || isObjectType(t))) throw new Error(`${where}: fieldsOf names ${b.fieldsOf}, not an object or input type`);
  const all = fieldsOfType(t, t.name, 'json');
  const unknownPick = (b.pick ?? []).filter((n) => !all[n]);
  if (unknownPick.length) throw new Error(`${where}: pick names ${unknownPick.join(', ')}, not fields of ${b.fieldsOf}`);
  const fields = b.pick ? Object.fromEntries(b.pick.map((n) => [n, all[n]!])) : all;
  // a free-form object: the service checks its keys (`required` documents the ones a route insists on)
  for (const [n, f] of Object.entries(fields)) f.required = !!b.required?.includes(n);
  return { type: b.type, fields };
}

/** The REST name of the field that keeps attributes as given (`extra_attributes`): never an attribute itself. */
const EXTRA_REST = restName(EXTRA_ATTRIBUTES_FIELD);

/**
 * An input with the extraAttributes field (a resource whose document says it has fields it does not
 * show): that field leaves the attributes and becomes where unknown attributes go.
 */
function withExtra(body: ResolvedBody): ResolvedBody {
  const f = body.fields[EXTRA_REST];
  if (f?.graphql !== EXTRA_ATTRIBUTES_FIELD) return body;
  const { [EXTRA_REST]: _extra, ...fields } = body.fields;
  return { ...body, fields, extra: f.graphql };
}

/** The answered attributes: `extra_attributes` is merged into them (jsonapi.resource), so any name may appear. */
function withoutExtra(attributes: JsonSchema): JsonSchema {
  const props = attributes.properties as Record<string, JsonSchema> | undefined;
  if (!props?.[EXTRA_REST]) return attributes;
  const { [EXTRA_REST]: extra, ...properties } = props;
  const { required: allRequired, ...rest } = attributes;
  const required = (allRequired as string[] | undefined)?.filter((k) => k !== EXTRA_REST);
  return { ...rest, properties, ...(required?.length ? { required } : {}), additionalProperties: { description: extra.description ?? 'attributes kept as given' } };
}

// ---------------------------------------------------------------------------------------------
// The operation's result, typed

const isJson = (t: GraphQLType) => SCALARS[getNamedType(t).name]?.kind === 'json';

/** The response keys whose values are free-form JSON, as a tree (see jsonapi.ts markFreeForm). */
export function freeFormTree(doc: DocumentNode, schema: GraphQLSchema): FreeFormTree {
  const { w, op, root } = walkOf(doc, schema);
  const build = (set: SelectionSetNode, parent: GraphQLNamedType): FreeFormTree => {
    const tree: FreeFormTree = {};
    eachField(w, set, parent, (key, def, sub) => {
      if (isJson(def.type)) tree[key] = true;
      else if (sub) {
        const inner = build(sub, getNamedType(def.type));
        const prev = tree[key];
        if (Object.keys(inner).length) tree[key] = typeof prev === 'object' ? { ...prev, ...inner } : inner;
      }
    });
    return tree;
  };
  return build(op.selectionSet, root);
}

function outputSchema(w: Walk, type: GraphQLType, sub: SelectionSetNode | undefined, coordinate: string): JsonSchema {
  const t = getNullableType(type);
  if (isListType(t)) return { type: 'array', items: outputSchema(w, t.ofType, sub, coordinate) };
  const named = getNamedType(t);
  if (sub) return selectionSchema(w, sub, named);
  return leafSchema(named, coordinate);
}

/** The JSON schema of a scalar or enum field's value (`coordinate`: Type.field, for json-shapes.ts). */
export function leafSchema(named: GraphQLNamedType, coordinate: string): JsonSchema {
  if (isEnumType(named)) return { type: 'string', enum: named.getValues().map((v) => v.name) };
  return attrSchema(withJsonShape(scalarSpec(named.name, named.name), coordinate));
}

function selectionSchema(w: Walk, set: SelectionSetNode, parent: GraphQLNamedType, skipId = false): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  eachField(w, set, parent, (key, def, sub) => {
    if (skipId && key === 'id') return;
    const name = restName(key);
    properties[name] = { ...outputSchema(w, def.type, sub, `${parent.name}.${def.name}`), ...(def.description ? { description: def.description } : {}) };
    if (isNonNullType(def.type)) required.push(name);
  });
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/**
 * The JSON schema of the attributes of the resource a route answers: the first object down the
 * operation's result that selects `id` (through `items` of a page), without `id`; the root
 * field's object when none does.
 */
export function attributesSchema(doc: DocumentNode, schema: GraphQLSchema): JsonSchema {
  const { w, op, root } = walkOf(doc, schema);
  let found: { def: GraphQLField<unknown, unknown>; sub?: SelectionSetNode } | undefined;
  eachField(w, op.selectionSet, root, (_key, def, sub) => (found ??= { def, sub }));
  if (!found?.sub) return { type: 'object' };
  let { def, sub } = found as { def: GraphQLField<unknown, unknown>; sub: SelectionSetNode };
  for (;;) {
    const keys: Record<string, { def: GraphQLField<unknown, unknown>; sub?: SelectionSetNode }> = {};
    eachField(w, sub, getNamedType(def.type), (key, d, s) => (keys[key] = { def: d, sub: s }));
    if (keys.id) return selectionSchema(w, sub, getNamedType(def.type), true);
    const items = keys.items;
    if (!items?.sub) return selectionSchema(w, sub, getNamedType(def.type));
    ({ def, sub } = items as { def: GraphQLField<unknown, unknown>; sub: SelectionSetNode });
  }
}

/** The OpenAPI schema of a derived attribute type. */
export function attrSchema(spec: AttrSpec): JsonSchema {
  switch (spec.kind) {
    case 'json':
      return { description: 'free-form JSON; keys kept as given', ...(spec.schema ?? {}) };
    case 'list':
      return { type: 'array', items: attrSchema(spec.items) };
    case 'object':
      return fieldsSchema(spec.fields);
    default:
      return { type: spec.type, ...(spec.format ? { format: spec.format } : {}), ...(spec.enum ? { enum: spec.enum } : {}) };
  }
}

/** The OpenAPI schema of an attributes object. */
export function fieldsSchema(fields: AttrFields): JsonSchema {
  const properties = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, { ...attrSchema(f.spec), ...(f.description ? { description: f.description } : {}) }]));
  const required = Object.keys(fields).filter((k) => fields[k].required);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** What the bridge derives for one route row. */
export interface DerivedRoute {
  body?: ResolvedBody;
  freeForm: FreeFormTree;
  /** OpenAPI: the attributes of the resource the route answers */
  attributes: JsonSchema;
  /** the links and relationships its resources get (resource-links.ts) */
  links: RouteLinks;
}

/** The answered resource's attributes (and `id`, `unique_id`) the body does not take. */
function readOnlyOf(body: ResolvedBody, attributes: JsonSchema): Set<string> {
  const answered = Object.keys((attributes.properties as Record<string, unknown> | undefined) ?? {});
  return new Set(['id', 'unique_id', ...answered].filter((k) => !Object.prototype.hasOwnProperty.call(body.fields, k)));
}

/** Derive every row once (start-up); throws naming the first row whose body does not fit its operation. */
export function deriveRoutes(routes: readonly Route[], operations: ReadonlyMap<string, Operation>, schema: GraphQLSchema): Map<Route, DerivedRoute> {
  const out = new Map<Route, DerivedRoute>();
  const links = deriveLinks(routes, operations, schema);
  for (const r of routes) {
    const op = operations.get(r.operation);
    if (!op) throw new Error(`route ${r.method} ${r.path}: operation ${r.operation} not found in rest-bridge/operations/`);
    const doc = parse(op.source);
    const body = resolveBody(r, operationOf(doc), schema);
    const attributes = withoutExtra(attributesSchema(doc, schema));
    if (body) body.readOnly = readOnlyOf(body, attributes);
    out.set(r, { body, freeForm: freeFormTree(doc, schema), attributes, links: links.get(r)! });
  }
  return out;
}
