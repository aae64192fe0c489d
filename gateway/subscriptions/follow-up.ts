// The follow-up query that resolves a subscription event's entity through the supergraph: the
// subscriber's own selection set (fragments and the variables it uses included), and one query per
// distinct (event, caller, selection, variables) however many subscribers receive the event.
import { Kind, print, visit, type FieldNode, type GraphQLResolveInfo, type VariableDefinitionNode } from 'graphql';
import type { TenantContext } from '../../lib/tenant.js';
import type { EntityLink } from './registry.js';

export interface FollowUp {
  query: string;
  variables: Record<string, unknown>;
}

/** Names of the variables used anywhere in the field's selection set or the fragments it spreads. */
function usedVariables(info: GraphQLResolveInfo, node: FieldNode): Set<string> {
  const names = new Set<string>();
  const fragments = new Set<string>();
  const walk = (n: import('graphql').ASTNode) =>
    visit(n, {
      Variable: (v) => void names.add(v.name.value),
      FragmentSpread: (s) => {
        if (fragments.has(s.name.value)) return;
        fragments.add(s.name.value);
        const def = info.fragments[s.name.value];
        if (def) walk(def);
      },
    });
  if (node.selectionSet) walk(node.selectionSet);
  return names;
}

/** The query and variables for `link` given the subscriber's field node. Null when nothing is selected. */
export function buildFollowUp(info: GraphQLResolveInfo, link: EntityLink, id: string): FollowUp | null {
  const node = info.fieldNodes[0] as FieldNode;
  if (!node.selectionSet) return null;
  const used = usedVariables(info, node);
  let idVar = 'entityId';
  while (used.has(idVar)) idVar = `_${idVar}`;
  const defs: string[] = [`$${idVar}: ${link.idType}`];
  const variables: Record<string, unknown> = { [idVar]: id };
  for (const d of info.operation.variableDefinitions ?? ([] as readonly VariableDefinitionNode[])) {
    const name = d.variable.name.value;
    if (!used.has(name)) continue;
    defs.push(print(d));
    if (name in info.variableValues) variables[name] = info.variableValues[name];
  }
  const fragments = Object.values(info.fragments)
    .filter((f) => f.kind === Kind.FRAGMENT_DEFINITION)
    .map(print)
    .join('\n');
  const query = `query SubscriptionFollowUp(${defs.join(', ')}) { ${link.query}(${link.idArg}: $${idVar}) ${print(node.selectionSet)} }\n${fragments}`;
  return { query, variables };
}

/** What a follow-up's result depends on besides the query: the caller, minus the per-connection request id. */
export function callerKey(t: TenantContext): string {
  const { requestId: _requestId, ...rest } = t;
  return JSON.stringify(Object.fromEntries(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b))));
}

/**
 * Shares one follow-up among the subscribers an event reaches. Keyed by the event payload object
 * (every subscriber of a topic on this process receives the same object, from memory or Redis
 * pub/sub), so entries live exactly as long as the event does.
 */
export class FollowUpShare<R> {
  private byEvent = new WeakMap<object, Map<string, Promise<R>>>();
  /** follow-up queries actually run (for tests and metrics) */
  runs = 0;

  get(event: unknown, caller: string, f: FollowUp, run: () => Promise<R>): Promise<R> {
    if (typeof event !== 'object' || event === null) return this.count(run);
    let m = this.byEvent.get(event);
    if (!m) this.byEvent.set(event, (m = new Map()));
    const key = `${caller}\n${f.query}\n${JSON.stringify(f.variables)}`;
    let p = m.get(key);
    if (!p) m.set(key, (p = this.count(run)));
    return p;
  }

  private count(run: () => Promise<R>): Promise<R> {
    this.runs++;
    return run();
  }
}
