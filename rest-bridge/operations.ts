// The bridge's GraphQL operations: .graphql files under operations/ whose names start with the
// service (platform.graphql, platform-billing.graphql, ...), each operation named after its route.
// Fragments are shared by all the files of one service, so a resource's field list is written once. Each operation is sent alone (with only the fragments it
// uses), so the gateway parses, validates and plans a small document it can cache per route.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Kind, parse, print, visit, type DefinitionNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { loadApiSchema } from './api-schema.js';
import { expandAllFields } from './fragments.js';
import type { Service } from './types.js';

export const OPERATIONS_DIR = resolve(import.meta.dirname, 'operations');
export const SERVICES: Service[] = ['platform', 'products', 'search', 'ai'];

/** The operation files of one service: `<service>.graphql` and `<service>-<part>.graphql`. */
export function operationFiles(service: Service, dir = OPERATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f === `${service}.graphql` || (f.startsWith(`${service}-`) && f.endsWith('.graphql')))
    .sort();
}

export interface Operation {
  service: Service;
  name: string;
  /** a standalone document: the operation plus the fragments it uses */
  source: string;
}

/** Split one file into standalone operations. Throws on anonymous or duplicate operations and unknown fragments. */
export function splitOperations(service: Service, text: string, file = `${service}.graphql`, shared?: Map<string, FragmentDefinitionNode>): Operation[] {
  const doc = parse(text);
  const fragments = shared ?? fragmentsOf([{ file, text }]);
  const ops: Operation[] = [];
  for (const d of doc.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    if (!d.name) throw new Error(`operations/${file}: every operation needs a name`);
    const used = usedFragments(d, fragments, file);
    const defs: DefinitionNode[] = [d, ...used];
    ops.push({ service, name: d.name.value, source: defs.map((x) => print(x)).join('\n\n') + '\n' });
  }
  return ops;
}

function usedFragments(op: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>, file: string): FragmentDefinitionNode[] {
  const out = new Map<string, FragmentDefinitionNode>();
  const pending: DefinitionNode[] = [op];
  while (pending.length) {
    visit(pending.pop()!, {
      FragmentSpread(node) {
        const name = node.name.value;
        if (out.has(name)) return;
        const f = fragments.get(name);
        if (!f) throw new Error(`operations/${file}: unknown fragment ${name}`);
        out.set(name, f);
        pending.push(f);
      },
    });
  }
  return [...out.values()];
}

/** Every fragment of the given files, by name; a name defined twice is an error naming the file. */
export function fragmentsOf(files: { file: string; text: string }[]): Map<string, FragmentDefinitionNode> {
  const out = new Map<string, FragmentDefinitionNode>();
  for (const { file, text } of files) {
    for (const d of parse(text).definitions) {
      if (d.kind !== Kind.FRAGMENT_DEFINITION) continue;
      if (out.has(d.name.value)) throw new Error(`operations/${file}: fragment ${d.name.value} is defined twice in this service's files`);
      out.set(d.name.value, d);
    }
  }
  return out;
}

let cache: Map<string, Operation> | undefined;

/**
 * Every operation of every service file, by operation name (read once per process), with its
 * `@allFields` selections expanded against the schema (fragments.ts).
 */
export function loadOperations(dir = OPERATIONS_DIR, schema: GraphQLSchema = loadApiSchema()): Map<string, Operation> {
  if (dir === OPERATIONS_DIR && cache) return cache;
  const map = new Map<string, Operation>();
  for (const service of SERVICES) {
    const files = operationFiles(service, dir).map((file) => {
      const text = readFileSync(resolve(dir, file), 'utf8');
      return { file, text: print(expandAllFields(parse(text), schema, service, file)) };
    });
    const fragments = fragmentsOf(files);
    for (const { file, text } of files) {
      for (const op of splitOperations(service, text, file, fragments)) {
        if (map.has(op.name)) throw new Error(`operation ${op.name} is defined twice (operations/${file})`);
        map.set(op.name, op);
      }
    }
  }
  if (dir === OPERATIONS_DIR) cache = map;
  return map;
}
