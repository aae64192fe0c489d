// The differential half of `npm run audit:federation` (scripts/audit-federation.ts): what the audit
// cannot see. Every suite's queries run through our gateway core (gateway/core.ts) in three set-ups on
// the suite's supergraph: in-flight sharing on with every query sent four times and all of a suite's
// queries at once (so identical subgraph fetches do meet in flight), sharing off one query at a time,
// and sharing and the single-fetch pass-through both off (ApolloGateway's own executor over our data
// source). Answers (data and errors, message and path) must be equal to the last set-up's. The core is
// driven in process through Apollo's executeOperation, the path subscription events' follow-up queries
// take (gateway/gateway.ts runQuery). Mutations change the subgraphs' state (and are never shared):
// each set-up runs them once, from a list of the suite's cases fetched afresh (the audit gives each
// list its own request ids), and its answers are compared with the audit's expected data instead.
// The audit's subgraphs are served by its own `serve` command.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { getOperationAST, parse } from 'graphql';
import { startGatewayCore, type GatewayCore } from '../gateway/core.js';
import type { CoreContext } from '../gateway/data-source.js';

const COPIES = 4;
const LIMITS = { maxDepth: 100, maxCost: 1e9, maxAliases: 1000, maxTokens: 100_000 };

type Answer = { data?: unknown; errors?: readonly { message: string; path?: readonly (string | number)[] }[] };

async function ask(core: GatewayCore<CoreContext>, query: string): Promise<string> {
  const r = await core.apollo.executeOperation({ query }, { contextValue: {} });
  const a = (r.body.kind === 'single' ? r.body.singleResult : { errors: [{ message: 'incremental' }] }) as Answer;
  return JSON.stringify({ data: a.data ?? null, errors: a.errors?.map((e) => ({ message: e.message, path: e.path })) ?? null });
}

/** Starts the audit's subgraphs, compares the set-ups suite by suite, prints a summary; returns how many answers differed. */
export async function runDifferential(opts: { work: string; ids: string[]; ports: { subgraphs: number } }): Promise<number> {
  const t0 = performance.now();
  const serve = spawn(process.execPath, [join(opts.work, 'node_modules/tsx/dist/cli.mjs'), join(opts.work, 'src/cli.ts'), 'serve', '--port', String(opts.ports.subgraphs)], { cwd: opts.work, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((done) => serve.once('exit', () => done()));
  try {
    await new Promise<void>((ready, fail) => {
      serve.stdout.on('data', (d: Buffer) => d.toString().includes('Server started') && ready());
      serve.once('exit', (code) => fail(new Error(`the audit's serve exited (${code})`)));
    });
    const origin = `http://127.0.0.1:${opts.ports.subgraphs}`;
    let queries = 0;
    let shared = 0;
    const differences: string[] = [];
    for (const id of opts.ids) {
      const supergraphSdl = await (await fetch(`${origin}/${id}/supergraph`)).text();
      const cases = async () => (await (await fetch(`${origin}/${id}/tests`, { headers: { accept: 'application/json' } })).json()) as { query: string; expected: { data?: unknown } }[];
      const all = await cases();
      const isMutation = all.map((t) => getOperationAST(parse(t.query))?.operation === 'mutation');
      const tests = all.map((t, index) => ({ ...t, index })).filter((t) => !isMutation[t.index]);
      const start = (singleFetch: boolean, shareInFlight: boolean) => startGatewayCore<CoreContext>({ supergraphSdl, singleFetch, shareInFlight, limits: LIMITS });
      const [sharing, unshared, plain] = await Promise.all([start(true, true), start(true, false), start(false, false)]);
      try {
        const reference: string[] = [];
        const alone: string[] = [];
        for (const t of tests) {
          reference.push(await ask(plain, t.query));
          // the pass-through decides on an operation's second sight: the second answer is compared
          await ask(unshared, t.query);
          alone.push(await ask(unshared, t.query));
        }
        for (const t of tests) await ask(sharing, t.query);
        const together = await Promise.all(tests.map((t) => Promise.all(Array.from({ length: COPIES }, () => ask(sharing, t.query)))));
        tests.forEach((_t, i) => {
          queries++;
          const differ = (label: string, got: string) => {
            differences.push(`${id}_${tests[i].index} (${label})`);
            if (differences.length <= 5) console.log(`\n${id}_${tests[i].index} ${label}:\n  expected ${reference[i].slice(0, 600)}\n  got      ${got.slice(0, 600)}`);
          };
          if (alone[i] !== reference[i]) differ('pass-through', alone[i]);
          else if (together[i].some((a) => a !== reference[i])) differ('sharing', together[i].find((a) => a !== reference[i])!);
        });
        for (const [label, core] of [['mutation, pass-through and sharing off', plain], ['mutation, sharing off', unshared], ['mutation, sharing on', sharing]] as const) {
          const fresh = await cases();
          for (const [i, t] of fresh.entries()) {
            if (!isMutation[i]) continue;
            queries++;
            const got = JSON.parse(await ask(core, t.query)) as { data: unknown };
            if (!isDeepStrictEqual(got.data, t.expected.data ?? null)) {
              differences.push(`${id}_${i} (${label})`);
              console.log(`\n${id}_${i} ${label}:\n  expected ${JSON.stringify(t.expected.data).slice(0, 600)}\n  got      ${JSON.stringify(got.data).slice(0, 600)}`);
            }
          }
        }
        shared += sharing.inFlight?.shared ?? 0;
      } finally {
        await Promise.all([sharing, unshared, plain].map((c) => c.apollo.stop()));
      }
    }
    console.log(`\ndifferential: ${queries} queries of ${opts.ids.length} suites, sharing on (×${COPIES} at once) / off / off with ApolloGateway's executor alone: ${differences.length ? `${differences.length} differ: ${differences.join(', ')}` : 'every answer equal'}; ${shared} subgraph fetches shared in flight (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    return differences.length;
  } finally {
    serve.kill();
    await exited;
  }
}
