// npm run compose: write schema/<subgraph>.graphql from code and compose schema/supergraph.graphql.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { FIELD_ACCESS_FILE, ROOT, compose, emitFieldAccess, emitSdl, readSupergraphConfig } from './supergraph.js';
import { SUBSCRIPTION_SDL } from '../gateway/subscriptions/registry.js';

const sdl = await emitSdl();
for (const e of readSupergraphConfig()) writeFileSync(e.file, sdl.get(e.name)!);
const result = compose(sdl);
if (result.errors) {
  for (const e of result.errors) console.error(`composition error: ${e.message}`);
  process.exit(1);
}
writeFileSync(resolve(ROOT, 'schema', 'supergraph.graphql'), result.supergraphSdl.trim() + '\n');
// The gateway serves the Subscription root itself; its SDL is committed beside the supergraph.
writeFileSync(resolve(ROOT, 'schema', 'subscriptions.graphql'), SUBSCRIPTION_SDL.trim() + '\n');
// Who may read each guarded field, from the same code (lib/field-access.ts).
writeFileSync(FIELD_ACCESS_FILE, emitFieldAccess());
for (const h of result.hints ?? []) console.log(`hint: ${h.definition.code}: ${h.message}`);
console.log(`composed ${sdl.size} subgraphs into schema/supergraph.graphql`);
