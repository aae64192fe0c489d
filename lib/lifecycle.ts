// The process's place in its lifecycle, as an orchestrator drives it (docs/deploy.md): serving, then
// on SIGTERM draining. From the signal on, every server of the process answers /health/ready 503
// (the balancer takes it out of rotation) while it keeps serving for SHUTDOWN_DELAY_MS; then the
// servers, workers and pools drain in parallel before one deadline (SHUTDOWN_GRACE_MS).

let drainingSince: number | undefined;

/** From now on the process answers not-ready. */
export function beginDrain(): void {
  drainingSince ??= Date.now();
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
