// What each task type does (task.handlers.ts: writing documents, merging index settings, dropping an
// index) and the search process's background work that runs them (../workers.ts: the task worker, the
// webhook sender and engine snapshots; a worker of its own rather than `jobs`, since it runs on the
// runtime's pool, keeps an hour of finished jobs, runs only with SEARCH_WORKER=1, and snapshots wait for
// its idle time). A module above tasks/, documents/ and indexes/: it hands the handlers to the task
// runner, so tasks/ imports neither documents/ nor indexes/, which both enqueue tasks.
import type { SubgraphModule } from '../../../lib/subgraph-module.js';
import type { SearchContext } from '../context.js';
import { startSearchWorkers } from '../workers.js';
import { TASK_HANDLERS } from './task.handlers.js';

export const taskKindsModule: SubgraphModule<SearchContext> = {
  name: 'task-kinds',
  workers: (deps) => startSearchWorkers(deps, TASK_HANDLERS),
};
