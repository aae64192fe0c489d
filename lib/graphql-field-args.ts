// graphql-js (16) works out every field's arguments before resolving it, also for the fields that
// declare none: two null-prototype objects (the arguments and a map of the field's argument nodes),
// both dictionaries to V8, per field and per object. A page of 20 products resolves about 800
// fields, so that was a third of everything a catalog request allocated (about 310 of 940 KB in the
// allocation profile of bench:throughput, docs/performance.md) and fed the garbage collector. A
// field without arguments gets one shared, frozen, empty object instead; a field with arguments
// goes through graphql-js's own code, so coercion, defaults and errors are unchanged.
//
// execute.js reads the function off its module's exports on every call (`(0, _values.getArgumentValues)`),
// which is where this wraps it, once per process. If a graphql-js release moves it, nothing is
// wrapped and execution is graphql-js's as it ships (fieldArgsFastPath() says which).
import { createRequire } from 'node:module';
import type { GraphQLArgument, FieldNode, DirectiveNode, GraphQLDirective, GraphQLField } from 'graphql';

type ArgumentValues = (def: GraphQLField<unknown, unknown> | GraphQLDirective, node: FieldNode | DirectiveNode, variableValues?: unknown) => { [argument: string]: unknown };

/** What a resolver of a field without arguments receives as `args`. */
export const NO_ARGUMENTS: { readonly [argument: string]: unknown } = Object.freeze(Object.create(null) as Record<string, unknown>);

let installed: boolean | undefined;

/** Wrap graphql-js's getArgumentValues (once per process); true when the fast path is in place. */
export function fieldArgsFastPath(): boolean {
  if (installed !== undefined) return installed;
  const values = createRequire(import.meta.url)('graphql/execution/values.js') as { getArgumentValues?: ArgumentValues };
  const original = values.getArgumentValues;
  const descriptor = Object.getOwnPropertyDescriptor(values, 'getArgumentValues');
  if (typeof original !== 'function' || !descriptor?.writable) return (installed = false);
  values.getArgumentValues = (def, node, variableValues) => ((def.args as readonly GraphQLArgument[]).length === 0 ? NO_ARGUMENTS : original(def, node, variableValues));
  return (installed = true);
}
