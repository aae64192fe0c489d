// The composed schema the bridge derives its bodies, free-form attributes and OpenAPI schemas
// from: the committed supergraph (schema/supergraph.graphql), the same file the gateway serves,
// so the bridge and the gateway always agree on every input and output type.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema, getNamedType, isInputObjectType, isObjectType, isScalarType, type GraphQLInputType, type GraphQLSchema } from 'graphql';

export const SUPERGRAPH_FILE = resolve(import.meta.dirname, '..', 'schema', 'supergraph.graphql');

let cache: GraphQLSchema | undefined;

/** The supergraph as a graphql-js schema (read once per process). */
export function loadApiSchema(file = SUPERGRAPH_FILE): GraphQLSchema {
  if (file === SUPERGRAPH_FILE && cache) return cache;
  const schema = buildSchema(readFileSync(file, 'utf8'), { assumeValidSDL: true });
  if (file === SUPERGRAPH_FILE) cache = schema;
  return schema;
}

let freeForm: ReadonlySet<string> | undefined;

/**
 * The argument and input-field names typed as a JSON scalar somewhere in the supergraph (`metadata`,
 * `documents`, `placeholders`): below them an error's parameter names the client's own keys, which
 * the bridge keeps as written (naming.ts restParameter).
 */
export function freeFormNames(): ReadonlySet<string> {
  if (freeForm) return freeForm;
  const names = new Set<string>();
  const add = (name: string, type: GraphQLInputType) => {
    const named = getNamedType(type);
    if (isScalarType(named) && /JSON/.test(named.name)) names.add(name);
  };
  for (const t of Object.values(loadApiSchema().getTypeMap())) {
    if (isInputObjectType(t)) for (const f of Object.values(t.getFields())) add(f.name, f.type);
    if (isObjectType(t)) for (const f of Object.values(t.getFields())) for (const a of f.args) add(a.name, a.type);
  }
  return (freeForm = names);
}
