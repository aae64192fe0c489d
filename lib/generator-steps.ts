// Long work written as a generator of steps (an engine restored, segments merged, a vector graph built
// or placed) runs in one of two ways: to its end at once, where nothing else shares the thread (the
// engine thread, a bench), or a step per turn of the event loop, so searches and batches run between
// the steps.

/** Run `steps` to its end at once; its return value. */
export function runSteps<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** The next turn of the event loop (after the I/O and timers waiting now). */
export const nextTurn = (): Promise<void> => new Promise<void>((r) => setImmediate(r));

/** Run `steps` a step per turn of the event loop while `go()` holds; undefined once it does not. */
export async function runStepsByTurn<T>(steps: Generator<unknown, T>, go: () => boolean = () => true): Promise<T | undefined> {
  for (;;) {
    await nextTurn();
    if (!go()) return undefined;
    const r = steps.next();
    if (r.done) return r.value;
  }
}
