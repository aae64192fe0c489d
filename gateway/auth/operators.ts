// Platform operators at the edge (docs/security.md, "Platform operators"): a user JWT naming a
// platform in X-Platform reaches it only through an operator record of its `sub` (or a `platform`
// claim, or the super-admin scope). The record comes from the platform subgraph and is cached like a
// verified API key: in-process, for the key cache's TTL, in an LRU, dropped on every replica when the
// platform's operators change (key-invalidation.ts). "No record" is not cached: a platform just
// created, or an operator just added, is seen on the next request.
export interface OperatorRecord {
  platformId: string;
  platformCode: string;
  scopes: string[];
}

export type OperatorLookup = (userId: string, platformCode: string) => Promise<OperatorRecord | null>;

interface Entry {
  record: OperatorRecord;
  expires: number;
}

export class OperatorVerifier {
  /** insertion order is recency order (as in ApiKeyVerifier) */
  private cache = new Map<string, Entry>();
  private generation = 0;

  constructor(
    private lookup: OperatorLookup,
    private opts: { ttlMs: number; maxEntries?: number; now?: () => number },
  ) {}

  /** The operator record of `userId` on the live platform `platformCode`, or null (throws when the platform subgraph is unreachable). */
  async find(userId: string, platformCode: string): Promise<OperatorRecord | null> {
    const now = (this.opts.now ?? Date.now)();
    const key = `${userId}\n${platformCode}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      if (hit.expires > now) {
        this.cache.set(key, hit);
        return hit.record;
      }
    }
    const generation = this.generation;
    const record = await this.lookup(userId, platformCode);
    if (record && generation === this.generation) {
      this.cache.set(key, { record, expires: now + this.opts.ttlMs });
      const max = this.opts.maxEntries ?? 50_000;
      while (this.cache.size > max) this.cache.delete(this.cache.keys().next().value!);
    }
    return record;
  }

  /** Drop cached records of these platforms (every record without an argument). */
  invalidate(platformIds?: readonly string[]): void {
    this.generation++;
    if (!platformIds) return this.cache.clear();
    for (const [k, e] of this.cache) if (platformIds.includes(e.record.platformId)) this.cache.delete(k);
  }
}
