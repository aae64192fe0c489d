// A full garbage collection of the calling isolate (the event loop's, or a worker thread's), for code
// that has just let go of much memory and wants it back now rather than at V8's next growth step
// (the search engines' memory check, subgraphs/search/engine-registry/memory-check.ts). V8's `gc`
// function is exposed to a fresh context once the flag is set; the process needs no --expose-gc.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** Collect every generation now (synchronous: the isolate pauses for it). */
export function fullGc(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
