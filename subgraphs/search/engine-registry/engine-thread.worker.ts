// Worker-thread entry of the engine thread (engine-builder.ts): builds engines with its own small pg
// pool, so reading snapshots, re-indexing and compaction never run on the event loop that answers
// searches. The protocol with the main thread is engine-thread.serve.ts.
import { workerData } from 'node:worker_threads';
import { createLogger } from '../../../lib/logger.js';
import { createPool } from '../db.js';
import { engineFactory } from '../../../lib/search-engine/index.js';
import { EngineLoader } from './engine-loader.js';
import { serveEngineThread } from './engine-thread.serve.js';

const { dbUrl } = workerData as { dbUrl: string };
const log = createLogger({ component: 'search-engine-thread' });
const pool = createPool(dbUrl, log, 2);
const loader = new EngineLoader(pool, engineFactory, log);
serveEngineThread((indexId) => loader.load(indexId));
