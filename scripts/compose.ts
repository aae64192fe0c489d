// npm run compose: write schema/<subgraph>.graphql from code, compose schema/supergraph.graphql, and
// write the contract beside it (schema/contract.json, schema/field-access.json).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONTRACT_FILE, FIELD_ACCESS_FILE, ROOT, buildContract, compose, emitContract, emitFieldAccess, emitSdl, readSupergraphConfig } from './supergraph.js';

const sdl = await emitSdl();
for (const e of readSupergraphConfig()) writeFileSync(e.file, sdl.get(e.name)!);
const result = compose(sdl);
if (result.errors) {
  for (const e of result.errors) console.error(`composition error: ${e.message}`);
  process.exit(1);
}
writeFileSync(resolve(ROOT, 'schema', 'supergraph.graphql'), result.supergraphSdl.trim() + '\n');
// What the edges read instead of the subgraphs' code (lib/contract.ts): error codes, event types,
// limits, and the Subscription root the gateway serves (its SDL: `subscriptions.sdl`; the gateway's
// introspection shows it with the rest of the API).
const contract = buildContract();
writeFileSync(CONTRACT_FILE, emitContract(contract));
// Who may read each guarded field, from the same code (lib/field-access.ts).
writeFileSync(FIELD_ACCESS_FILE, emitFieldAccess());
for (const h of result.hints ?? []) console.log(`hint: ${h.definition.code}: ${h.message}`);
console.log(`composed ${sdl.size} subgraphs into schema/supergraph.graphql`);
