// The background work of a search process (SEARCH_WORKER=1): the task worker (lib/jobs, kind
// `search.task`), the webhook sender (lib/webhooks, its own job worker so a slow receiver never
// holds up a task), and engine snapshots written once the worker is idle. The task-kinds module starts
// them, with the handler of each task type (task-kinds/), which the task runner does not import.
import { JobWorker } from '../../lib/jobs/index.js';
import type { Worker, WorkerDeps } from '../../lib/subgraph.js';
import type { SearchRuntime } from './runtime.js';
import { SCHEMA } from './sql.js';
import type { TaskHandlers } from './tasks/task.handler.js';
import { taskJobKind } from './tasks/task.job.js';
import { pruneTaskHistory } from './tasks/task.queue.js';

/** Tasks one pruning statement deletes at most (short transactions; the next statement goes on). */
const PRUNE_BATCH = 5000;

/** The task history back within SEARCH_TASK_HISTORY per app partition (task.queue.ts pruneTaskHistory). */
async function pruneHistory(rt: SearchRuntime): Promise<void> {
  try {
    let deleted = 0;
    for (let n = PRUNE_BATCH; n === PRUNE_BATCH; deleted += n) n = await pruneTaskHistory(rt.pool, rt.cfg.taskHistory, PRUNE_BATCH);
    if (deleted) rt.log.info('task history pruned', { deleted, keep: rt.cfg.taskHistory });
  } catch (err) {
    rt.log.warn('task history pruning failed', { err });
  }
}

/** How long the worker must have been idle before a snapshot is written (they cost CPU). */
const SNAPSHOT_QUIET_MS = 3000;

export async function startSearchWorkers(deps: WorkerDeps & { runtime: SearchRuntime }, handlers: TaskHandlers): Promise<Worker[]> {
  const rt = deps.runtime;
  if (!rt.cfg.worker) return [];
  // the task rows keep the history: finished task jobs are dropped after an hour
  const tasks = new JobWorker({ schema: SCHEMA, kinds: [taskJobKind(rt, handlers)], dbUrl: rt.dbUrl, listenUrl: rt.listenUrl, pool: rt.pool, log: rt.log, pollMs: rt.cfg.pollMs, retainMs: 3600_000 });
  await tasks.start();
  await rt.webhooks.start();
  let busy = false;
  const maintenance = setInterval(() => {
    if (busy || Date.now() - tasks.lastActivity < SNAPSHOT_QUIET_MS) return;
    const due = rt.engines.snapshotCandidates(rt.cfg.snapshotEveryDocs);
    if (!due.length) return;
    busy = true;
    (async () => {
      for (const id of due) await rt.engines.snapshot(id);
    })()
      .catch((e) => rt.log.error('engine snapshot failed', { err: e }))
      .finally(() => (busy = false));
  }, 1000);
  maintenance.unref();
  // one round at a time: a round longer than the interval (a first pruning of a large history) is not joined by the next
  let pruningNow: Promise<void> | null = null;
  const pruning = setInterval(() => {
    pruningNow ??= pruneHistory(rt).finally(() => (pruningNow = null));
  }, rt.cfg.taskPruneMs);
  pruning.unref();
  rt.log.info('search workers started', { worker: tasks.id });
  return [
    tasks,
    {
      async stop() {
        clearInterval(maintenance);
        clearInterval(pruning);
        await pruningNow;
        await rt.webhooks.stop();
      },
    },
  ];
}
