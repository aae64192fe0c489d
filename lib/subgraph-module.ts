// One aggregate, one module: what an aggregate brings to its subgraph (entities, resolvers, reference
// resolvers, per-request DataLoaders, background job kinds and workers) in one shape. A subgraph
// lists its modules; composeModules merges them into the fields of its SubgraphDefinition, the
// loaders of every module into one `ctx.loaders` object per request, and the job kinds of every
// module onto the subgraph's job workers (lib/jobs), started by the definition's `workers` hook.
import { startJobWorker, type JobKind, type JobWorkerOptions } from './jobs/index.js';
import type { SubgraphContext, SubgraphDefinition, Worker, WorkerDeps } from './subgraph.js';

type Entities = Extract<SubgraphDefinition['entities'], readonly unknown[]>;
type ReferenceResolvers = NonNullable<SubgraphDefinition['referenceResolvers']>;
/** the runtime type of a subgraph context (`ctx.runtime`, the workers' `deps.runtime`) */
type RuntimeOf<C> = C extends SubgraphContext<unknown, infer R> ? R : never;
/** what a module's jobs and workers are given: the process's worker deps and the subgraph's runtime */
export type ModuleWorkerDeps<C extends SubgraphContext = SubgraphContext> = WorkerDeps & { runtime: RuntimeOf<C> };

/**
 * A job kind of a module (lib/jobs). `queue` names a job worker of its own for kinds that must not
 * hold up the others (slow model calls); left out, the kind runs on the subgraph's default worker.
 */
export type ModuleJobKind = JobKind<any> & { queue?: string };

/** How the subgraph's job workers run: its schema (the jobs table) and each queue's worker options. */
export interface JobQueues {
  schema: string;
  /** options of every queue's worker (poll interval, concurrency, retention) */
  worker?: Partial<Omit<JobWorkerOptions, 'schema' | 'kinds' | 'dbUrl' | 'log'>>;
  /** a queue's own options, over `worker` */
  queues?: Record<string, Partial<Omit<JobWorkerOptions, 'schema' | 'kinds' | 'dbUrl' | 'log'>>>;
}

export interface SubgraphModule<C extends SubgraphContext = SubgraphContext> {
  /** the aggregate (its folder's name) */
  name: string;
  /** MikroORM entities of the aggregate's tables */
  entities?: Entities;
  /** type-graphql resolver classes (a field the aggregate adds to another type included) */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers?: Function[];
  /** types the schema needs though no resolver returns them (another subgraph's entity this one adds fields to) */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  orphanedTypes?: Function[];
  /** `__resolveReference` of the federated entities the aggregate owns */
  referenceResolvers?: ReferenceResolvers;
  /**
   * The aggregate's DataLoaders for one request, given that request's context (whose `loaders` is the
   * merged object, so one loader may use another's). Each name is declared once in the subgraph.
   */
  loaders?: (ctx: C) => object;
  /**
   * The aggregate's background job kinds, made once per process that runs workers (not with
   * WORKERS=0). What a kind needs at start (a recurring run made sure of) is done here before the
   * kinds are answered. The kernel runs them on the subgraph's job workers.
   */
  jobs?: (deps: ModuleWorkerDeps<C>) => readonly ModuleJobKind[] | Promise<readonly ModuleJobKind[]>;
  /** Background work that is not a job kind (a webhook sender, maintenance timers), started before every job worker */
  workers?: (deps: ModuleWorkerDeps<C>) => Worker[] | Promise<Worker[]>;
}

export interface ComposedModules<L> {
  entities: Entities;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers: Function[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  orphanedTypes: Function[];
  referenceResolvers: ReferenceResolvers;
  createLoaders(base: object): L;
  /**
   * The SubgraphDefinition's `workers` hook: every module's workers in module order, then one job
   * worker per queue for every module's job kinds (none when no module has jobs). Stopped in reverse.
   */
  workers(deps: WorkerDeps & { runtime: unknown }): Promise<Worker[]>;
}

const MAKE = Symbol('createLoaders');

/**
 * The loaders of a context derived from a request's (its own EntityManager fork, a narrower tenant
 * scope): made by the modules that made `like`, the request's `ctx.loaders`.
 */
export function loadersFor<L extends object>(like: L, base: object): L {
  const make = (like as { [MAKE]?: (base: object) => L })[MAKE];
  if (!make) throw new Error('loadersFor: these loaders were not made by composeModules');
  return make(base);
}

/**
 * The SubgraphDefinition fields of `modules`. A module or reference type listed twice throws here (at
 * start); a loader name two modules declare throws when the first request's loaders are made.
 */
export function composeModules<L extends object, C extends SubgraphContext<L> = SubgraphContext<L>>(
  modules: readonly SubgraphModule<C>[],
  /** where the modules' job kinds run; required when a module has jobs */
  jobQueues?: JobQueues,
): ComposedModules<L> {
  const names = new Set<string>();
  const referenceResolvers: ReferenceResolvers = {};
  for (const m of modules) {
    if (names.has(m.name)) throw new Error(`module ${m.name} is listed twice`);
    names.add(m.name);
    for (const [type, r] of Object.entries(m.referenceResolvers ?? {})) {
      if (referenceResolvers[type]) throw new Error(`two modules resolve references to ${type} (one is ${m.name})`);
      referenceResolvers[type] = r;
    }
  }
  let checked = false;
  const createLoaders = (base: object): L => {
    const loaders = {} as L;
    // a context derived from this request's (another fork, another scope) makes its own: loadersFor
    Object.defineProperty(loaders, MAKE, { value: createLoaders, enumerable: false });
    // the loaders see the request's context as resolvers will: the same fields, these loaders
    const ctx = { ...base, loaders } as C;
    for (const m of modules) {
      const own = m.loaders?.(ctx);
      if (!own) continue;
      if (!checked) {
        const clash = Object.keys(own).find((k) => k in loaders);
        if (clash) throw new Error(`loader ${clash} of module ${m.name} is declared by another module too`);
      }
      Object.assign(loaders, own);
    }
    checked = true;
    return loaders;
  };
  return {
    entities: modules.flatMap((m) => [...(m.entities ?? [])]) as Entities,
    resolvers: modules.flatMap((m) => m.resolvers ?? []),
    orphanedTypes: modules.flatMap((m) => m.orphanedTypes ?? []),
    referenceResolvers,
    createLoaders,
    workers: (deps) => startModuleWorkers(modules, deps as ModuleWorkerDeps<C>, jobQueues),
  };
}

async function startModuleWorkers<C extends SubgraphContext>(modules: readonly SubgraphModule<C>[], deps: ModuleWorkerDeps<C>, jobQueues: JobQueues | undefined): Promise<Worker[]> {
  const started: Worker[] = [];
  try {
    for (const m of modules) started.push(...((await m.workers?.(deps)) ?? []));
    const byQueue = new Map<string, JobKind[]>();
    for (const m of modules) {
      for (const kind of (await m.jobs?.(deps)) ?? []) {
        const queue = kind.queue ?? 'default';
        if ([...byQueue.values()].some((ks) => ks.some((k) => k.kind === kind.kind))) throw new Error(`job kind ${kind.kind} of module ${m.name} is declared twice`);
        byQueue.set(queue, [...(byQueue.get(queue) ?? []), kind]);
      }
    }
    if (byQueue.size && !jobQueues) throw new Error('modules declare job kinds but the subgraph gives composeModules no job queues');
    for (const [queue, kinds] of byQueue) {
      started.push(await startJobWorker(deps, { ...jobQueues!.worker, ...jobQueues!.queues?.[queue], schema: jobQueues!.schema, kinds }));
    }
    return started;
  } catch (e) {
    for (const w of started.reverse()) await w.stop().catch(() => undefined);
    throw e;
  }
}
