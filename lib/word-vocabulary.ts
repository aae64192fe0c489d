// The word-vector model's vocabulary as three typed arrays instead of a Map of 100,000 strings:
//  - chars: every word's UTF-16 code units, one after another;
//  - offsets: where word i starts in chars (offsets[i + 1] is where it ends);
//  - slots: an open-addressing hash table (FNV-1a of the code units, linear probing, at most half
//    full) holding word indexes, −1 for an empty slot.
// All three sit in SharedArrayBuffers, so a worker thread handed the tables (workerData) reads the
// same memory as the thread that built them: one copy per process, ~2.7 MB for 100,000 words, and
// nothing for the garbage collector to walk (a Map of 100k strings is ~10 MB of small objects per thread).
// A lookup compares code units in place: no string is made unless word(i) is asked for.

export interface VocabularyTables {
  chars: Uint16Array;
  offsets: Uint32Array;
  slots: Int32Array;
}

export class Vocabulary {
  private readonly mask: number;

  constructor(readonly tables: VocabularyTables) {
    this.mask = tables.slots.length - 1;
  }

  /** The tables of `words` (index = position; a repeated word keeps its first index), in shared memory. */
  static build(words: readonly string[]): Vocabulary {
    let total = 0;
    for (const w of words) total += w.length;
    const chars = new Uint16Array(new SharedArrayBuffer(Math.max(total, 1) * 2));
    const offsets = new Uint32Array(new SharedArrayBuffer((words.length + 1) * 4));
    let size = 2;
    while (size < words.length * 2) size *= 2;
    const slots = new Int32Array(new SharedArrayBuffer(size * 4)).fill(-1);
    const v = new Vocabulary({ chars, offsets, slots });
    let at = 0;
    words.forEach((w, i) => {
      offsets[i] = at;
      for (let k = 0; k < w.length; k++) chars[at + k] = w.charCodeAt(k);
      at += w.length;
      offsets[i + 1] = at;
      const slot = v.slotOf(w);
      if (slots[slot] === -1) slots[slot] = i;
    });
    return v;
  }

  get size(): number {
    return this.tables.offsets.length - 1;
  }

  /** The index of `word`, or −1. */
  indexOf(word: string): number {
    return this.tables.slots[this.slotOf(word)];
  }

  /** Word `i` as a string. */
  word(i: number): string {
    const { chars, offsets } = this.tables;
    return String.fromCharCode(...chars.subarray(offsets[i], offsets[i + 1]));
  }

  /** The slot that holds `word`, or the empty slot where it would go. */
  private slotOf(word: string): number {
    const { slots } = this.tables;
    let h = 0x811c9dc5;
    for (let k = 0; k < word.length; k++) h = Math.imul(h ^ word.charCodeAt(k), 0x01000193);
    for (let s = h & this.mask; ; s = (s + 1) & this.mask) {
      const i = slots[s];
      if (i === -1 || this.equals(i, word)) return s;
    }
  }

  private equals(i: number, word: string): boolean {
    const { chars, offsets } = this.tables;
    const start = offsets[i];
    if (offsets[i + 1] - start !== word.length) return false;
    for (let k = 0; k < word.length; k++) if (chars[start + k] !== word.charCodeAt(k)) return false;
    return true;
  }
}
