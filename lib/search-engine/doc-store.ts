// The document bodies an engine returns in hits, kept compact: the JSON text of BLOCK consecutive
// internal ids, deflated together, in pages of bytes. A Debian package costs ~150-250 bytes here
// instead of ~1.5 KB as a parsed object, and a page of 20 hits inflates at most 20 blocks (~0.1 ms
// each). Search itself never reads a body: ranking, sort and distinct read columns (columns.ts).
//
//   pages[p]                         byte pages of up to PAGE_BYTES, the last one growing by doubling
//                                    (a larger block gets a page of its own)
//   blockPage/blockOff/blockLen[k]   where block k (ids k*BLOCK .. k*BLOCK+BLOCK-1) is stored
//   sealing                          full blocks being deflated on libuv's thread pool (their text is
//                                    read from here meanwhile), stored in block order as they finish
//   open                             JSON text of the ids after the last full block (fewer than BLOCK)
//
// A block's text is its documents' JSON joined by '\n' (JSON text has no raw newline); an empty line is
// an id without a body. Deleting a document only clears its liveness bit (engine.ts); compact(alive)
// rewrites the blocks once dead bodies are a large share of what is stored.
import { deflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { has, type Bitset } from './bitset.js';
import type { Document } from './types.js';

export const BLOCK = 32;
const PAGE_BYTES = 4 * 1024 * 1024;
/** a new page starts this small and doubles (small indexes hold little) */
const FIRST_PAGE_BYTES = 16 * 1024;
/** decoded blocks kept for the next reads (a page of hits, a sequential scan) */
const CACHE_BLOCKS = 16;
/** stored bodies over live ones beyond this share are rewritten by compact() */
const MAX_DEAD_SHARE = 0.3;
/** deflate level 1: ~3x faster than the default for 5-10 % more bytes (Debian: ~170 B per document) */
const LEVEL = 1;

/**
 * Full blocks waiting for the thread pool at most: beyond it the oldest is stored at once (deflated
 * here if need be), so a long synchronous run of puts holds at most this much text (~2,000 bodies).
 */
const MAX_SEALING = 64;

/** A full block on its way to the pages: its lines, then its deflated bytes once the pool has them. */
interface Sealing {
  lines: string[];
  z: Buffer | undefined;
  /** stored (or given up by a reset): a late deflate result is dropped */
  done: boolean;
}

/** The store as a snapshot holds it (typed arrays; `open` is short). */
export interface DocStoreData {
  block: number;
  pages: Uint8Array[];
  blockPage: Uint32Array;
  blockOff: Uint32Array;
  blockLen: Uint32Array;
  open: string[];
  /** bodies stored (live or not), for compaction */
  stored: number;
}

function grow(a: Uint32Array, n: number): Uint32Array {
  if (n <= a.length) return a;
  const next = new Uint32Array(Math.max(n, a.length * 2, 64));
  next.set(a);
  return next;
}

export class DocStore {
  private pages: Uint8Array[] = [];
  /** bytes used in the last page */
  private pageUsed = 0;
  private blockPage: Uint32Array = new Uint32Array(64);
  private blockOff: Uint32Array = new Uint32Array(64);
  private blockLen: Uint32Array = new Uint32Array(64);
  private sealed = 0;
  /** full blocks after the sealed ones, oldest first (see seal) */
  private sealing: Sealing[] = [];
  private open: string[] = [];
  /** deflate here, not on the pool (compaction rewrites every block in one synchronous run) */
  private syncSeal = false;
  private stored = 0;
  private cache = new Map<number, string[]>();

  /** internal ids covered (sealed blocks and the open one) */
  get size(): number {
    return (this.sealed + this.sealing.length) * BLOCK + this.open.length;
  }

  /**
   * Store the body of `id`; ids come in ascending order (the engine's next ids), gaps stay empty.
   * `text`: JSON.stringify(doc) when the caller has it already.
   */
  put(id: number, doc: Document, text = JSON.stringify(doc)): void {
    while (this.size < id) this.push('');
    if (this.size !== id) throw new Error(`document store: id ${id} is behind ${this.size}`);
    this.push(text);
    this.stored++;
  }

  get(id: number): Document | undefined {
    const k = Math.floor(id / BLOCK);
    let text: string | undefined;
    if (k < this.sealed) text = this.lines(k)[id - k * BLOCK];
    else if (k < this.sealed + this.sealing.length) text = this.sealing[k - this.sealed].lines[id - k * BLOCK];
    else text = this.open[id - (this.sealed + this.sealing.length) * BLOCK];
    return text ? (JSON.parse(text) as Document) : undefined;
  }

  /** Every live body in id order (re-indexing, embedding). */
  *live(alive: Bitset, upTo: number): Generator<{ id: number; doc: Document }> {
    for (let id = 0; id < upTo; id++) {
      if (!has(alive, id)) continue;
      const doc = this.get(id);
      if (doc) yield { id, doc };
    }
  }

  /** Bytes held: pages, block table, the text of the open block and of the blocks being deflated. */
  bytes(): number {
    let n = this.blockPage.byteLength * 3;
    for (const p of this.pages) n += p.byteLength;
    for (const t of this.open) n += t.length + 16;
    for (const b of this.sealing) for (const t of b.lines) n += t.length + 16;
    return n;
  }

  /** Rewrite the blocks without dead bodies when those are over MAX_DEAD_SHARE of what is stored. */
  compact(alive: Bitset, live: number): void {
    if (this.stored === 0 || (this.stored - live) / this.stored <= MAX_DEAD_SHARE) return;
    this.settle();
    const old = { pages: this.pages, page: this.blockPage, off: this.blockOff, len: this.blockLen, sealed: this.sealed, open: this.open };
    const decode = (k: number) => inflateRawSync(old.pages[old.page[k]].subarray(old.off[k], old.off[k] + old.len[k])).toString('utf8').split('\n');
    this.pages = [];
    this.pageUsed = 0;
    this.blockPage = new Uint32Array(Math.max(64, old.sealed));
    this.blockOff = new Uint32Array(this.blockPage.length);
    this.blockLen = new Uint32Array(this.blockPage.length);
    this.sealed = 0;
    this.open = [];
    this.cache.clear();
    this.stored = 0;
    this.syncSeal = true;
    for (let k = 0; k < old.sealed; k++) {
      const base = k * BLOCK;
      let any = false;
      for (let i = 0; i < BLOCK && !any; i++) any = has(alive, base + i);
      const lines = any ? decode(k) : [];
      for (let i = 0; i < BLOCK; i++) this.keep(has(alive, base + i) ? (lines[i] ?? '') : '');
    }
    for (let i = 0; i < old.open.length; i++) this.keep(has(alive, old.sealed * BLOCK + i) ? old.open[i] : '');
    this.syncSeal = false;
  }

  toData(): DocStoreData {
    this.settle();
    const last = this.pages.length - 1;
    return {
      block: BLOCK,
      // the last page cut to what is used (a copy: the store keeps appending to its page)
      pages: this.pages.map((p, i) => (i === last ? p.slice(0, this.pageUsed) : p)),
      blockPage: this.blockPage.slice(0, this.sealed),
      blockOff: this.blockOff.slice(0, this.sealed),
      blockLen: this.blockLen.slice(0, this.sealed),
      open: [...this.open],
      stored: this.stored,
    };
  }

  static fromData(d: DocStoreData): DocStore {
    if (d.block !== BLOCK) throw new Error(`document store: block of ${d.block}, this version writes ${BLOCK}`);
    const s = new DocStore();
    s.pages = d.pages.map((p) => (p instanceof Uint8Array ? p : new Uint8Array(p)));
    // the last page is full as far as the store knows: new blocks start a page of their own
    s.pageUsed = PAGE_BYTES;
    s.sealed = d.blockPage.length;
    s.blockPage = grow(new Uint32Array(d.blockPage), s.sealed + 1);
    s.blockOff = grow(new Uint32Array(d.blockOff), s.blockPage.length);
    s.blockLen = grow(new Uint32Array(d.blockLen), s.blockPage.length);
    s.open = [...d.open];
    s.stored = d.stored;
    return s;
  }

  private keep(text: string): void {
    this.push(text);
    if (text) this.stored++;
  }

  /**
   * Give the open block's lines a text of their own (joined and split again): a line that is a slice
   * of a larger text (a task's payload, put with `text`) would otherwise keep that whole text alive
   * until the block fills, which for an index no longer written to is never.
   */
  ownOpenLines(): void {
    if (this.open.length) this.open = this.open.join('\n').split('\n');
  }

  private push(text: string): void {
    this.open.push(text);
    if (this.open.length === BLOCK) this.seal();
  }

  /**
   * A full block is deflated on libuv's thread pool, off the thread that indexes (deflate was ~15 % of
   * indexing a batch); its text answers reads meanwhile. Blocks reach the pages in block order, each
   * when it and every block before it are deflated.
   */
  private seal(): void {
    const b: Sealing = { lines: this.open, z: undefined, done: false };
    this.open = [];
    this.sealing.push(b);
    if (this.syncSeal) {
      this.storeDeflated(true);
      return;
    }
    if (this.sealing.length > MAX_SEALING) this.storeHead();
    deflateRaw(Buffer.from(b.lines.join('\n'), 'utf8'), { level: LEVEL }, (err, z) => {
      if (b.done) return;
      // a failed deflate (out of memory) is done again synchronously when the block's turn comes
      if (!err) b.z = z;
      this.storeDeflated(false);
    });
  }

  /** Every block being deflated is in the pages when this returns (deflated here if the pool has not yet). */
  settle(): void {
    this.storeDeflated(true);
  }

  /** Store the deflated blocks at the head of `sealing`; `all`: deflate the rest here and store them too. */
  private storeDeflated(all: boolean): void {
    while (this.sealing.length && (all || this.sealing[0].z)) this.storeHead();
  }

  /** Store the oldest block of `sealing`, deflated here when the pool's result is not in yet. */
  private storeHead(): void {
    const b = this.sealing.shift()!;
    this.append(b.z ?? deflateRawSync(Buffer.from(b.lines.join('\n'), 'utf8'), { level: LEVEL }));
    b.done = true;
  }

  /** Store the next block's deflated bytes in the pages. */
  private append(z: Buffer): void {
    let page = this.pages.length - 1;
    if (page < 0 || this.pageUsed + z.byteLength > this.pages[page].byteLength) {
      const last = this.pages[page];
      if (last && last.byteLength < PAGE_BYTES && this.pageUsed + z.byteLength <= PAGE_BYTES) {
        // the last page is small (a small index): it grows, doubling, up to PAGE_BYTES
        const bigger = new Uint8Array(Math.min(PAGE_BYTES, Math.max(last.byteLength * 2, this.pageUsed + z.byteLength)));
        bigger.set(last.subarray(0, this.pageUsed));
        this.pages[page] = bigger;
      } else {
        this.pages.push(new Uint8Array(Math.max(FIRST_PAGE_BYTES, z.byteLength)));
        page++;
        this.pageUsed = 0;
      }
    }
    this.pages[page].set(z, this.pageUsed);
    const k = this.sealed++;
    this.blockPage = grow(this.blockPage, this.sealed);
    this.blockOff = grow(this.blockOff, this.sealed);
    this.blockLen = grow(this.blockLen, this.sealed);
    this.blockPage[k] = page;
    this.blockOff[k] = this.pageUsed;
    this.blockLen[k] = z.byteLength;
    this.pageUsed += z.byteLength;
  }

  private lines(k: number): string[] {
    let lines = this.cache.get(k);
    if (lines) return lines;
    const p = this.pages[this.blockPage[k]];
    const off = this.blockOff[k];
    lines = inflateRawSync(p.subarray(off, off + this.blockLen[k])).toString('utf8').split('\n');
    if (this.cache.size >= CACHE_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(k, lines);
    return lines;
  }
}
