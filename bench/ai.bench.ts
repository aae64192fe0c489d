// AI text endpoints through the REST bridge (bridge → gateway → ai subgraph → worker-thread models)
// on a 1,000-character text: p50 per endpoint against the 20 ms budget, CPU per call, the models' load
// time and the process RSS.
// The whole stack runs in this process, so RSS covers every subgraph plus the AI models.
// Run: BENCH_PORT_BASE=22500 DATABASE_URL=postgres://… npm run bench:ai
// BENCH_ONLY=translate runs only the cases whose label contains it; BENCH_TRANSLATE_N (default 20)
// sets the translation calls measured.
import { loadavg } from 'node:os';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { AI_BENCH_SECRET, aiBenchEnv, aiBenchTenant } from './ai-tenant.js';
import { startStack } from '../scripts/stack.js';
import { scratchDatabase, stackPorts } from './harness.js';
import { fmt, sequential } from './stats.js';

const base = Number(process.env.BENCH_PORT_BASE ?? 22500);
const N = Number(process.env.BENCH_N ?? 100);
const TRANSLATE_N = Number(process.env.BENCH_TRANSLATE_N ?? 20);
const ONLY = process.env.BENCH_ONLY ?? '';
const secret = AI_BENCH_SECRET;
const db = await scratchDatabase('ai');
const env = aiBenchEnv(db.url, stackPorts(base), 'bench-ai');
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const stack = await startStack(loadConfig(env), createLogger({}, 'error'));
const url = stack.rest.url;
const gatewayHealth = stack.gateway.url.replace(/\/graphql$/, '/health/detailed');
const { call, doc, headers, health: detailedHealth } = await aiBenchTenant(url, gatewayHealth, secret, 'bench', 0);

// the text models load on first use ('idle' until then; AI_PRELOAD=1: 'ready' once loaded at start);
// the warm-up calls of each case below pay the first-call loads
let health: any;
for (let i = 0; i < 200; i++) {
  health = await detailedHealth();
  if (['ready', 'idle'].includes(health.components?.ai?.details?.text?.status)) break;
  await new Promise((r) => setTimeout(r, 100));
}
const ready = performance.now() - started;

const TEXT = (
  'When I was a kid, I was always fascinated by how things worked. My father was an engineer at Boeing in Seattle, and he took me to the factory in June 1998. ' +
  'I saw the wings of a plane being built by hundreds of people. That day I decided I wanted to build things too. Years later I studied engineering at MIT, ' +
  'and the first thing I built was a terrible robot that could not walk. But building that robot taught me more than any lecture. Today our team at Microsoft ' +
  'spends $5 million a year on robots, and I still remember that factory. Good engineering is patient, curious and a little stubborn. '
).repeat(2).slice(0, 1000);
const SENTENCES = TEXT.split(/(?<=\.) /).slice(0, 16);
while (SENTENCES.length < 16) SENTENCES.push(SENTENCES[SENTENCES.length % 8]);

const cases: Array<[string, string, string, Record<string, unknown>]> = [
  ['sentiment', '/ai/v1/text/sentiment', 'sentiment_requests', { text: TEXT }],
  ['language', '/ai/v1/text/language', 'language_requests', { text: TEXT }],
  ['entities', '/ai/v1/text/entities', 'entity_requests', { text: TEXT }],
  ['key-phrases', '/ai/v1/text/key-phrases', 'key_phrase_requests', { text: TEXT }],
  ['summarize', '/ai/v1/text/summarize', 'summarize_requests', { text: TEXT, max_length: 300 }],
  ['moderation/text', '/ai/v1/moderation/text', 'moderation_requests', { text: TEXT }],
  ['embeddings (16 sentences)', '/ai/v1/embeddings', 'embedding_requests', { inputs: SENTENCES }],
  ['embeddings/similarity (1 + 15)', '/ai/v1/embeddings/similarity', 'similarity_requests', { source: SENTENCES[0], targets: SENTENCES.slice(1) }],
  ['translate en→es (200 chars)', '/ai/v1/translate', 'translation_requests', { text: TEXT.slice(0, 200), source_language: 'en', target_language: 'es' }],
  ['translate en→es (1,000 chars)', '/ai/v1/translate', 'translation_requests', { text: TEXT, source_language: 'en', target_language: 'es' }],
];
/** Issue 31's budget: p50 of each text endpoint at 1,000 characters (docs/ai.md, Latency). */
const BUDGET_MS = 20;
console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}; stack start (+ AI models with AI_PRELOAD=1): ${ready.toFixed(0)} ms; text models: ${JSON.stringify(health.components.ai.details.text)}`);
for (const [label, path, type, attrs] of cases.filter(([label]) => label.includes(ONLY))) {
  const n = path === '/ai/v1/translate' ? TRANSLATE_N : N;
  // CPU of the whole process (client, bridge, gateway, subgraph and the model worker thread) per call:
  // what a call costs, which the machine's load does not inflate as it inflates wall time
  const cpu0 = process.cpuUsage();
  const st = await sequential(n, 5, () => call('POST', path, headers, doc(type, attrs)));
  const used = process.cpuUsage(cpu0);
  const budget = label.includes('200 chars') ? '' : `  p50 ≤ ${BUDGET_MS} ms: ${st.p50 <= BUDGET_MS ? 'yes' : 'NO'}`;
  console.log(fmt(`POST ${label}`, { ...st, cpuMs: (used.user + used.system) / 1000 / (n + 5) }) + budget);
}
const rss = process.memoryUsage().rss;
console.log(`RSS of the stack process with the AI text models loaded: ${(rss / 1024 / 1024).toFixed(0)} MB (before start ${(rssBefore / 1024 / 1024).toFixed(0)} MB); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
await stack.stop();
await db.drop();
process.exit(0);
