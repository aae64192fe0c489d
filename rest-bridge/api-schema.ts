// The composed schema the bridge derives its bodies, free-form attributes and OpenAPI schemas
// from: the committed supergraph (schema/supergraph.graphql), the same file the gateway serves,
// so the bridge and the gateway always agree on every input and output type.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema, type GraphQLSchema } from 'graphql';

export const SUPERGRAPH_FILE = resolve(import.meta.dirname, '..', 'schema', 'supergraph.graphql');

let cache: GraphQLSchema | undefined;

/** The supergraph as a graphql-js schema (read once per process). */
export function loadApiSchema(file = SUPERGRAPH_FILE): GraphQLSchema {
  if (file === SUPERGRAPH_FILE && cache) return cache;
  const schema = buildSchema(readFileSync(file, 'utf8'), { assumeValidSDL: true });
  if (file === SUPERGRAPH_FILE) cache = schema;
  return schema;
}
