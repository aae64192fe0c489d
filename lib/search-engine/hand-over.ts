// Handing a built engine to another thread (the search service's engine thread → its event loop): the
// engine's snapshot structure with its typed arrays listed for postMessage's transfer list (moved, not
// copied). The engine is given up: its arrays now belong to the receiver.
//
// Arrays under SMALL_BYTES are first copied into shared blocks of BLOCK_BYTES (views, 8-byte aligned),
// and the blocks are transferred instead. glibc serves an allocation under its mmap threshold
// (MALLOC_MMAP_THRESHOLD_, 128 KiB in deployment) from the allocating thread's arena: the engine
// thread's. When the event loop later frees an unloaded engine's small arrays, that memory goes back to
// the engine thread's arena, fragmented between newer engines' arrays, and the process keeps it. A block
// is mapped on its own (at or above the threshold: its untouched tail is never resident) and unmapped
// when the engine's last view into it is collected. A 1,000-document engine is mostly such arrays
// (docs/search.md, "What the memory budget counts"). An array that a merge later replaces keeps its
// block until the block's other views go too: at most the engine's size at hand-over.
import { transferCodec, type SnapshotData } from './snapshot.js';
import type { Codec, Engine, TypedArray } from './types.js';

/** Arrays under this are packed into blocks: the deployed mmap threshold (larger ones are mapped alone). */
export const SMALL_BYTES = 128 * 1024;
/** A block's size: twice the largest array it takes, so a block is rarely left half empty. */
const BLOCK_BYTES = 2 * SMALL_BYTES;

type ArrayKind = new (buffer: ArrayBuffer, byteOffset: number, length: number) => TypedArray;

export function handOver(engine: Engine): {
  snapshot: SnapshotData;
  transfer: ArrayBuffer[];
} {
  const moved = transferCodec({ move: true });
  const packed = blockCodec(moved.transfer);
  const snapshot = engine.toSnapshot({
    put: (a) => (a.byteLength < SMALL_BYTES ? packed.put(a) : moved.put(a)),
  }) as SnapshotData;
  return { snapshot, transfer: moved.transfer };
}

/** Copies each array into the current block (a new one when it does not fit), listing blocks in `transfer`. */
function blockCodec(transfer: ArrayBuffer[]): Codec {
  let block: ArrayBuffer | undefined;
  let used = 0;
  return {
    put(a) {
      const size = (a.byteLength + 7) & ~7;
      if (!block || used + size > block.byteLength) {
        block = new ArrayBuffer(Math.max(BLOCK_BYTES, size));
        used = 0;
        transfer.push(block);
      }
      // a Buffer (a Uint8Array of Node's) is copied as a plain Uint8Array
      const Kind = (a instanceof Uint8Array ? Uint8Array : a.constructor) as ArrayKind;
      const view = new Kind(block, used, a.length);
      view.set(a);
      used += size;
      return view;
    },
  };
}
