// Memory of the AI models in the one-process stack (`npm start`'s default): the process RSS at rest
// after start, then after one call of each text endpoint in turn (each call loads the model it needs
// on first use, so the step is that model's cost), and the RSS of the child processes (Apertium's
// pipelines live outside the Node process). AI_PRELOAD=1 loads every model at start instead.
// Run: BENCH_PORT_BASE=22500 DATABASE_URL=postgres://… npm run bench:ai-memory
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { AI_BENCH_SECRET, aiBenchEnv, aiBenchTenant } from './ai-tenant.js';
import { startStack } from '../scripts/stack.js';
import { scratchDatabase, stackPorts } from './harness.js';

const base = Number(process.env.BENCH_PORT_BASE ?? 22500);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 3000);
const secret = AI_BENCH_SECRET;
const db = await scratchDatabase('ai_memory');
const env = aiBenchEnv(db.url, stackPorts(base), 'bench-ai-memory');

const MB = 1024 * 1024;
/** The RSS (MB) of this process's descendants, read from /proc (Apertium's pipelines). */
function childrenRss(): number {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const d of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const status = readFileSync(`/proc/${d}/status`, 'utf8');
      parent.set(Number(d), Number(/PPid:\s+(\d+)/.exec(status)?.[1]));
      rss.set(Number(d), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024);
    } catch {
      // gone meanwhile
    }
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, pp] of parent) if (!mine.has(pid) && mine.has(pp)) grew = mine.add(pid) !== undefined;
  }
  mine.delete(process.pid);
  return [...mine].reduce((s, pid) => s + (rss.get(pid) ?? 0), 0) / MB;
}

async function settled(): Promise<{ rss: number; children: number }> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  (globalThis as { gc?: () => void }).gc?.();
  return { rss: process.memoryUsage().rss / MB, children: childrenRss() };
}

const stack = await startStack(loadConfig(env), createLogger({}, 'error'));
const { call, doc, headers, health } = await aiBenchTenant(stack.rest.url, stack.gateway.url.replace(/\/graphql$/, '/health/detailed'), secret, 'mem', 3);
const TEXT = 'When I was a kid, I was always fascinated by how things worked. My father was an engineer at Boeing in Seattle, and he took me to the factory in June 1998. '.repeat(7).slice(0, 1000);
const SENTENCES = TEXT.split(/(?<=\.) /).slice(0, 4);

// at rest: once the text models are no longer loading (loaded at start before AI_PRELOAD existed; idle now)
for (let i = 0; i < 600; i++) {
  if ((await health()).components?.ai?.details?.text?.status !== 'loading') break;
  await new Promise((r) => setTimeout(r, 200));
}
const rest = await settled();
console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}; AI_PRELOAD=${process.env.AI_PRELOAD ?? ''}; AI_TEXT_WORKERS=${process.env.AI_TEXT_WORKERS ?? '1'}`);
console.log(`at rest after start: process RSS ${rest.rss.toFixed(0)} MB, child processes ${rest.children.toFixed(0)} MB`);
const steps: Array<[string, string, string, Record<string, unknown>]> = [
  ['sentiment (VADER)', '/ai/v1/text/sentiment', 'sentiment_requests', { text: TEXT }],
  ['language (fastText lid.176 + ELD large)', '/ai/v1/text/language', 'language_requests', { text: TEXT }],
  ['key-phrases (wink)', '/ai/v1/text/key-phrases', 'key_phrase_requests', { text: TEXT }],
  ['summarize (wink, TextRank)', '/ai/v1/text/summarize', 'summarize_requests', { text: TEXT, max_length: 300 }],
  ['entities (compromise)', '/ai/v1/text/entities', 'entity_requests', { text: TEXT }],
  ['embeddings (glove-sif-100d)', '/ai/v1/embeddings', 'embedding_requests', { inputs: SENTENCES }],
  ['moderation/text (rules + classifier)', '/ai/v1/moderation/text', 'moderation_requests', { text: TEXT }],
  ['translate en→es (Apertium pipeline)', '/ai/v1/translate', 'translation_requests', { text: TEXT, source_language: 'en', target_language: 'es' }],
];
let last = rest;
for (const [label, path, type, attrs] of steps) {
  const t = performance.now();
  await call('POST', path, headers, doc(type, attrs));
  const first = performance.now() - t;
  const now = await settled();
  console.log(
    `after ${label.padEnd(40)} first call ${first.toFixed(0).padStart(6)} ms; process RSS ${now.rss.toFixed(0)} MB (+${(now.rss - last.rss).toFixed(0)}), children ${now.children.toFixed(0)} MB (+${(now.children - last.children).toFixed(0)})`,
  );
  last = now;
}
const text = (await health()).components?.ai?.details?.text;
console.log(`text models: ${JSON.stringify(text)}`);
console.log(`total after one call of each: ${(last.rss + last.children).toFixed(0)} MB (process ${last.rss.toFixed(0)} + children ${last.children.toFixed(0)}); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
await stack.stop();
await db.drop();
process.exit(0);
