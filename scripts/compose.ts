// npm run compose: compose schema/supergraph.graphql from each subgraph's SDL as printed from code,
// and write the contract beside it (schema/contract.json, schema/field-access.json). The subgraphs'
// own SDL is not committed (the supergraph holds each one, field by field, under its join
// directives); `npm run -s compose -- --print <subgraph>` prints one.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONTRACT_FILE, FIELD_ACCESS_FILE, ROOT, buildContract, compose, emitContract, emitFieldAccess, emitSdl } from './supergraph.js';

const sdl = await emitSdl();
const print = process.argv.indexOf('--print');
if (print >= 0) printOne(process.argv[print + 1]);
else writeContract();

/** One subgraph's SDL on stdout (exit code 2 for a name supergraph.yaml does not list). */
function printOne(name: string | undefined): void {
  const one = sdl.get(name as never);
  if (one) process.stdout.write(one);
  else {
    console.error(`--print takes a subgraph: ${[...sdl.keys()].join(', ')}`);
    process.exitCode = 2;
  }
}

function writeContract(): void {
  const result = compose(sdl);
  if (result.errors) {
    for (const e of result.errors) console.error(`composition error: ${e.message}`);
    process.exitCode = 1;
    return;
  }
  writeFileSync(resolve(ROOT, 'schema', 'supergraph.graphql'), result.supergraphSdl.trim() + '\n');
  // What the edges read instead of the subgraphs' code (lib/contract.ts): error codes, event types,
  // limits, and the Subscription root the gateway serves (its SDL: `subscriptions.sdl`; the gateway's
  // introspection shows it with the rest of the API).
  writeFileSync(CONTRACT_FILE, emitContract(buildContract()));
  // Who may read each guarded field, from the same code (lib/field-access.ts).
  writeFileSync(FIELD_ACCESS_FILE, emitFieldAccess());
  for (const h of result.hints ?? []) console.log(`hint: ${h.definition.code}: ${h.message}`);
  console.log(`composed ${sdl.size} subgraphs into schema/supergraph.graphql`);
}
