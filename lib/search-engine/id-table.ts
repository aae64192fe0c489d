// External id → internal id, as an open-addressing hash table in one Int32Array instead of a
// Map<string, number>: the keys are not stored twice, the table reads them from the engine's `extIds`
// (the string of internal id i is extIds[i]). A Map entry costs ~40 bytes per document on top of the
// string; this table costs 4 bytes per slot at a load of 0.375-0.75 (5-11 bytes per document).
//
//   slots[h]   0: empty, -1: deleted (a tombstone, so probes go on past it), else internal id + 1
//
// Linear probing from the key's FNV-1a hash; the table doubles (or is rebuilt without tombstones) when
// used slots pass 3/4. A snapshot holds the slots as they are (toData), so a restore adopts them
// (adopt) instead of hashing every id again; ID_HASH names the hash, and slots made by another one are
// not adopted (the restore then rebuilds the table).

/** the hash the slots were placed by: change it with `hash` */
export const ID_HASH = 1;

/** The table as a snapshot holds it. */
export interface IdTableData {
  hash: number;
  slots: Int32Array;
  used: number;
  count: number;
}

/** 32-bit FNV-1a over the UTF-16 code units, then a final mix (ids are often consecutive numbers). */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 0;
}

export class IdTable {
  private slots: Int32Array = new Int32Array(16);
  /** slots not empty: live entries and tombstones */
  private used = 0;
  private count = 0;

  /** `keyOf(id)`: the external id of internal id `id` while it is in the table */
  constructor(private readonly keyOf: (id: number) => string | undefined) {}

  get size(): number {
    return this.count;
  }

  get(key: string): number | undefined {
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let i = hash(key) & mask; ; i = (i + 1) & mask) {
      const s = slots[i];
      if (s === 0) return undefined;
      if (s > 0 && this.keyOf(s - 1) === key) return s - 1;
    }
  }

  /** Map `key` to `id` (keyOf(id) must already answer `key`). */
  set(key: string, id: number): void {
    if ((this.used + 1) * 4 > this.slots.length * 3) this.resize();
    const slots = this.slots;
    const mask = slots.length - 1;
    let free = -1;
    for (let i = hash(key) & mask; ; i = (i + 1) & mask) {
      const s = slots[i];
      if (s === 0) {
        if (free < 0) {
          free = i;
          this.used++;
        }
        break;
      }
      if (s < 0) {
        if (free < 0) free = i;
      } else if (this.keyOf(s - 1) === key) {
        slots[i] = id + 1;
        return;
      }
    }
    slots[free] = id + 1;
    this.count++;
  }

  delete(key: string): boolean {
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let i = hash(key) & mask; ; i = (i + 1) & mask) {
      const s = slots[i];
      if (s === 0) return false;
      if (s > 0 && this.keyOf(s - 1) === key) {
        slots[i] = -1;
        this.count--;
        return true;
      }
    }
  }

  bytes(): number {
    return this.slots.byteLength;
  }

  /** The slots (a copy: the table keeps changing) and counts, for a snapshot. */
  toData(): IdTableData {
    return { hash: ID_HASH, slots: this.slots.slice(), used: this.used, count: this.count };
  }

  /**
   * Take a snapshot's slots as this table (the keys, keyOf, must already answer for its ids): false,
   * and nothing changed, when they were placed by another hash or do not hold `count` entries.
   */
  adopt(d: IdTableData | undefined, count: number): boolean {
    if (!d || d.hash !== ID_HASH || d.count !== count || !(d.slots instanceof Int32Array)) return false;
    const n = d.slots.length;
    if (n < 16 || (n & (n - 1)) !== 0 || d.used < d.count || d.used * 4 > n * 3) return false;
    this.slots = d.slots;
    this.used = d.used;
    this.count = d.count;
    return true;
  }

  /** Make room for `n` entries at once (a restore that rebuilds the table: no doubling on the way). */
  reserve(n: number): void {
    if ((this.used + n) * 4 > this.slots.length * 3) this.resize(this.count + n);
  }

  /** Rehash the live entries into a table where `entries` fill at most 3/8 (so it doubles as it grows). */
  private resize(entries = this.count + 1): void {
    const old = this.slots;
    let size = 16;
    while (size * 3 < entries * 8) size *= 2;
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let k = 0; k < old.length; k++) {
      const s = old[k];
      if (s <= 0) continue;
      let i = hash(this.keyOf(s - 1)!) & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = s;
    }
    this.slots = slots;
    this.used = this.count;
  }
}
