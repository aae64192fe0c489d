// AI image endpoints through the REST bridge (bridge → gateway → ai subgraph → lib/vision workers,
// Tesseract + PaddleOCR): detect, classify and moderation on a real photo (Debian darknet's dog.jpg,
// 768×576), OCR on the scanned page of test/harness/scanned-page.ts (1000×420, 7 lines, one rotated).
// The images are served by a local server (ALLOW_PRIVATE_NETWORK_FETCH=1 for this bench), so each
// call includes the image fetch through the URL guard. Prints p50/p95/p99, model load and RSS.
// Run: BENCH_PORT_BASE=22600 DATABASE_URL=postgres://… npm run bench:ai-images
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { AI_BENCH_SECRET, aiBenchEnv, aiBenchTenant } from './ai-tenant.js';
import { startStack } from '../scripts/stack.js';
import { scratchDatabase, stackPorts } from './harness.js';
import { fmt, sequential } from './stats.js';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scannedPage } from '../test/harness/scanned-page.js';

const base = Number(process.env.BENCH_PORT_BASE ?? 22600);
const N = Number(process.env.BENCH_N ?? 30);
const secret = AI_BENCH_SECRET;
const db = await scratchDatabase('ai_images');
const env = aiBenchEnv(db.url, stackPorts(base), 'bench-ai-images', {
  // the bench measures throughput, not the per-key image budget (docs/security.md, Limits)
  IMAGE_BUDGET_PER_MINUTE: '1000000',
  ALLOW_PRIVATE_NETWORK_FETCH: '1',
}, { AI_VISION_PRELOAD: '1' });
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const stack = await startStack(loadConfig(env), createLogger({}, 'error'));
const url = stack.rest.url;
const gatewayHealth = stack.gateway.url.replace(/\/graphql$/, '/health/detailed');
const { call, doc, headers, health: detailedHealth } = await aiBenchTenant(url, gatewayHealth, secret, 'benchi', 0);

// the vision models are ready once /health/detailed says so (the text models load on first use: idle)
let health: any;
for (let i = 0; i < 1200; i++) {
  health = await detailedHealth();
  const d = health.components?.ai?.details;
  if (['ready', 'idle'].includes(d?.text?.status) && d?.vision?.detector?.status === 'ready' && d?.vision?.mobilenet?.status === 'ready') break;
  await new Promise((r) => setTimeout(r, 100));
}
const ready = performance.now() - started;

const rssModels = process.memoryUsage().rss;
const page = (await scannedPage()).png;
const dog = readFileSync('/usr/share/darknet/data/dog.jpg');
const images = createServer((req, res) => (req.url === '/page.png' ? res.writeHead(200).end(page) : res.writeHead(200).end(dog)));
await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
const img = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;

console.log(`stack start + text and vision models ready: ${ready.toFixed(0)} ms; vision: ${JSON.stringify(health.components.ai.details.vision)}`);
const cases: Array<[string, string, string, Record<string, unknown>]> = [
  ['image/detect (dog.jpg 768×576)', '/ai/v1/image/detect', 'object_detect_requests', { image_url: `${img}/dog.jpg` }],
  ['image/classify (dog.jpg)', '/ai/v1/image/classify', 'image_classify_requests', { image_url: `${img}/dog.jpg` }],
  ['moderation/image (dog.jpg)', '/ai/v1/moderation/image', 'image_moderation_requests', { image_url: `${img}/dog.jpg`, categories: ['adult'] }],
  ['image/ocr (scanned page 1000×420)', '/ai/v1/image/ocr', 'ocr_requests', { image_url: `${img}/page.png` }],
];
for (const [label, path, type, attrs] of cases) console.log(fmt(`POST ${label}`, await sequential(N, 3, () => call('POST', path, headers, doc(type, attrs)))));
const rss = process.memoryUsage().rss;
console.log(`RSS: before start ${(rssBefore / 1024 / 1024).toFixed(0)} MB; with text + vision models loaded ${(rssModels / 1024 / 1024).toFixed(0)} MB; after the runs (PaddleOCR loaded) ${(rss / 1024 / 1024).toFixed(0)} MB`);
console.log(`load average at the end: ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);
images.close();
await stack.stop();
await db.drop();
process.exit(0);
