// The process's place in its lifecycle, as an orchestrator drives it (docs/deploy.md): serving, then
// on SIGTERM draining. From the signal on, every server of the process answers /health/ready 503
// (the balancer takes it out of rotation) while it keeps serving for SHUTDOWN_DELAY_MS; then the
// servers, workers and pools drain in parallel before one deadline (SHUTDOWN_GRACE_MS).

let drainingSince: number | undefined;
const onDrainListeners: (() => void)[] = [];

/** From now on the process answers not-ready; the drain listeners run once, at the first call. */
export function beginDrain(): void {
  if (drainingSince !== undefined) return;
  drainingSince = Date.now();
  for (const l of onDrainListeners.splice(0)) l();
}

/**
 * Run `listener` when the drain begins (at once if it has): a process that starts others (npm start's
 * split mode) signals them then, so they go unready during the same delay as itself.
 */
export function onDrain(listener: () => void): void {
  if (drainingSince !== undefined) listener();
  else onDrainListeners.push(listener);
}

export function isDraining(): boolean {
  return drainingSince !== undefined;
}

/** Milliseconds left before `deadline`, never negative: each drain step is cut at the process's one deadline. */
export function remainingMs(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}

/** The readiness answer of a draining process (its body names why). */
export const DRAINING = { status: 'draining', detail: 'shutting down: requests in flight are finished, new ones go to other replicas' } as const;
