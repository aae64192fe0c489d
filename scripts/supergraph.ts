// Reading supergraph.yaml, emitting subgraph SDL from code, composing. Used by scripts/compose.ts
// and by the drift test, so both agree on what "the committed contract" is.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parse } from 'graphql';
import { composeServices } from '@apollo/composition';
import type { SubgraphName } from '../lib/config.js';
import { subgraphSdl } from '../lib/subgraph.js';
import { fieldAccess, type FieldAccess } from '../lib/field-access.js';
import { FIELD_ACCESS_FILE } from '../rest-bridge/key-types.js';
import { SUBGRAPHS } from './subgraphs.js';

export const ROOT = resolve(import.meta.dirname, '..');

export interface SupergraphEntry {
  name: SubgraphName;
  routingUrl: string;
  file: string;
}

export function readSupergraphConfig(): SupergraphEntry[] {
  const doc = parseYaml(readFileSync(resolve(ROOT, 'supergraph.yaml'), 'utf8')) as {
    subgraphs: Record<string, { routing_url: string; schema: { file: string } }>;
  };
  return Object.entries(doc.subgraphs).map(([name, s]) => ({
    name: name as SubgraphName,
    routingUrl: s.routing_url,
    file: resolve(ROOT, s.schema.file),
  }));
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
