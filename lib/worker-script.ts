// Starting a worker thread from a module of this repository, in development (TypeScript through
// @swc-node's loader), under jest (which transforms TypeScript itself, so a worker would have no
// loader) and from npm run build's dist/ (plain JavaScript).
import { Worker, type WorkerOptions } from 'node:worker_threads';

const TS_LOADER = ['--import', '@swc-node/register/esm-register'];

/** The worker entry `name` (without extension) beside the module `base` (its import.meta.url). */
export function workerScript(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith('.js') ? '.js' : '.ts'}`, base);
}

/** The worker's execArgv: the parent's, plus the TypeScript loader when the parent runs without it. */
export function workerExecArgv(): string[] | undefined {
  const loaded = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('swc-node'));
  return loaded ? undefined : [...process.execArgv, ...TS_LOADER];
}

/** A worker thread running `name` beside `base` (see workerScript), with the loader it needs. */
export function startWorker(base: string, name: string, options: WorkerOptions = {}): Worker {
  const ts = !base.endsWith('.js');
  return new Worker(workerScript(base, name), { ...(ts ? { execArgv: workerExecArgv() } : {}), ...options });
}
