// Reading supergraph.yaml, emitting subgraph SDL from code, composing. Used by scripts/compose.ts
// and by the drift test, so both agree on what "the committed contract" is.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parse } from 'graphql';
import { composeServices } from '@apollo/composition';
import type { SubgraphName } from '../lib/config.js';
import { subgraphSdl, type SubgraphDefinition } from '../lib/subgraph.js';
import { CONTRACT_FILE, type Contract, type ServiceContract } from '../lib/contract.js';
import { fieldAccess, type FieldAccess } from '../lib/field-access.js';
import { FIELD_ACCESS_FILE } from '../rest-bridge/key-types.js';
import { SUBGRAPHS } from './subgraphs.js';

export const ROOT = resolve(import.meta.dirname, '..');

export interface SupergraphEntry {
  name: SubgraphName;
  routingUrl: string;
}

export function readSupergraphConfig(): SupergraphEntry[] {
  const doc = parseYaml(readFileSync(resolve(ROOT, 'supergraph.yaml'), 'utf8')) as {
    subgraphs: Record<string, { routing_url: string }>;
  };
  return Object.entries(doc.subgraphs).map(([name, s]) => ({ name: name as SubgraphName, routingUrl: s.routing_url }));
}

/** SDL of every subgraph, printed from code (type-graphql classes). */
export async function emitSdl(): Promise<Map<SubgraphName, string>> {
  const out = new Map<SubgraphName, string>();
  for (const entry of readSupergraphConfig()) {
    const def = SUBGRAPHS[entry.name];
    if (!def) throw new Error(`supergraph.yaml lists ${entry.name}, which scripts/subgraphs.ts does not define`);
    out.set(entry.name, (await subgraphSdl(def)).trim() + '\n');
  }
  return out;
}

export function compose(sdl: Map<SubgraphName, string>) {
  const entries = readSupergraphConfig();
  return composeServices(
    entries.map((e) => ({ name: e.name, url: e.routingUrl, typeDefs: parse(sdl.get(e.name) ?? '') })),
  );
}

export { FIELD_ACCESS_FILE };

/** The roles every guarded field of every subgraph declares (lib/field-access.ts), as committed in schema/field-access.json. */
export function emitFieldAccess(): string {
  const classes = readSupergraphConfig().flatMap((e) => SUBGRAPHS[e.name]?.resolvers ?? []);
  const table: FieldAccess = fieldAccess(classes);
  // one field a line: a change shows as one line in a diff
  const lines = Object.entries(table).map(([k, roles]) => `  ${JSON.stringify(k)}: ${JSON.stringify(roles)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}

export { CONTRACT_FILE };

/**
 * The contract of every subgraph (lib/contract.ts), in supergraph.yaml's order: error codes, event
 * types, limits, and the gateway's Subscription root assembled from each subgraph's fields. A code,
 * an event type or a Subscription field declared by two subgraphs stops the build.
 */
export function buildContract(): Contract {
  const services: Record<string, ServiceContract> = {};
  const owners = { code: new Map<string, string>(), event: new Map<string, string>(), field: new Map<string, string>() };
  const claim = (kind: keyof typeof owners, name: string, owner: string) => {
    const known = owners[kind].get(name);
    if (known) throw new Error(`${kind} ${name} is declared by ${known} and by ${owner}`);
    owners[kind].set(name, owner);
  };
  const types: string[] = [];
  const fields: Contract['subscriptions']['fields'][number][] = [];
  for (const { name } of readSupergraphConfig()) {
    const def: SubgraphDefinition<any, any> | undefined = SUBGRAPHS[name];
    if (!def) throw new Error(`supergraph.yaml lists ${name}, which scripts/subgraphs.ts does not define`);
    const errorCodes = def.errorCodes ?? {};
    for (const code of Object.keys(errorCodes)) claim('code', code, name);
    const eventTypes = (def.eventTypes ?? []).flatMap((e) => e.names);
    for (const e of eventTypes) claim('event', e, name);
    services[name] = { errorCodes, eventTypes, limits: def.limits ?? {} };
    if (def.subscriptions) {
      types.push(def.subscriptions.types.trim());
      for (const f of def.subscriptions.fields) {
        claim('field', f.field, name);
        fields.push({ ...f, owner: name });
      }
    }
  }
  const sdl = `${types.join('\n\n')}\n\ntype Subscription {\n${fields.map((f) => `  ${f.sdl.trim()}`).join('\n')}\n}\n\nextend schema { subscription: Subscription }\n`;
  return { services, subscriptions: { sdl, fields } };
}

/** schema/contract.json as committed: in declaration order, a short value on one line (a change is a one-line diff). */
export function emitContract(contract = buildContract()): string {
  return printJson(contract, '') + '\n';
}

function printJson(v: unknown, indent: string): string {
  const flat = JSON.stringify(v);
  if (v === null || typeof v !== 'object' || flat.length <= 100) return flat;
  const inner = indent + '  ';
  if (Array.isArray(v)) return `[\n${v.map((x) => inner + printJson(x, inner)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(v).filter(([, x]) => x !== undefined);
  return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${printJson(x, inner)}`).join(',\n')}\n${indent}}`;
}
