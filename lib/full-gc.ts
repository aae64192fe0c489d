// A full garbage collection of the calling isolate (the event loop's, or a worker thread's), for code
// that has just let go of much memory and wants it back now rather than at V8's next growth step
// (the search engines' memory check, subgraphs/search/engine-registry/memory-check.ts). V8's `gc`
// function is exposed to a fresh context once the flag is set; the process needs no --expose-gc.
//
// The 'last-resort' flavor is V8's low-memory collection (repeated full GCs that compact the old
// generation, shrink the young one and unmap the freed pages at once). A plain gc() frees the objects
// but keeps their pages committed or pooled for reuse: measured in the churn bench, RSS barely moves
// (docs/search.md, "What the memory budget counts").
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: NodeJS.GCFunction | undefined;

/** Collect every generation now and give the freed pages back (synchronous: the isolate pauses for it). */
export function fullGc(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as NodeJS.GCFunction;
  }
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
