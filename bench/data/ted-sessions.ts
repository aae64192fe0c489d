// A recommendation event log derived deterministically from shared/datasets/ted-talks.json (2,356
// real TED talks with their tags, view counts and audience ratings), for the recommendation
// quality and speed figures (docs/ai.md, Recommendations). Each synthetic viewer u:
//  - takes two interest tags, drawn with a generator seeded by u among the tags of at least 10 talks,
//    weighted by how many talks carry them;
//  - watches 6 to 15 distinct talks carrying either tag, drawn without replacement weighted by the square
//    root of the talk's real viewed_count (popular talks are watched more, the long tail still is);
//  - each watch is a `view`; it is also a `like` with the talk's real share of positive ratings
//    (inspiring + beautiful + funny + fascinating + jaw-dropping over all ratings) times 0.5;
//  - events are one hour apart, viewers' sessions one minute apart, ending at `end`.
// The held-out item of a viewer is the talk of their last view.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { mulberry32 } from '../../lib/seeded-random.js';

export interface SessionEvent {
  user: string;
  item: string;
  type: 'view' | 'like';
  at: Date;
  metadata: Record<string, unknown>;
}

interface Talk {
  objectID: string;
  tags: string[];
  viewed_count: number;
  duration_range: number;
  [k: string]: unknown;
}

function pick<T>(items: T[], weight: (t: T) => number, r: number): number {
  const total = items.reduce((s, t) => s + weight(t), 0);
  let x = r * total;
  for (let i = 0; i < items.length; i++) {
    x -= weight(items[i]);
    if (x <= 0) return i;
  }
  return items.length - 1;
}

export function loadTalks(): Talk[] {
  return JSON.parse(readFileSync(resolve(import.meta.dirname, '..', '..', '..', 'shared', 'datasets', 'ted-talks.json'), 'utf8'));
}

const POSITIVE = ['inspiring_rating', 'beautiful_rating', 'funny_rating', 'fascinating_rating', 'jaw_droping_rating'];
const ALL = [...POSITIVE, 'courageous_rating', 'informative_rating', 'ingenious_rating'];

export function tedSessions(users: number, end = new Date('2026-11-01T00:00:00Z'), talks = loadTalks()): { events: SessionEvent[]; heldOut: Map<string, string> } {
  const byTag = new Map<string, Talk[]>();
  for (const t of talks) for (const tag of t.tags) byTag.set(tag, [...(byTag.get(tag) ?? []), t]);
  const tags = [...byTag.entries()].filter(([, ts]) => ts.length >= 10).sort(([a], [b]) => a.localeCompare(b));
  const events: SessionEvent[] = [];
  const heldOut = new Map<string, string>();
  const hour = 3600_000;
  for (let u = 0; u < users; u++) {
    const rand = mulberry32(1_000_003 * (u + 1));
    const user = `viewer-${u}`;
    const t1 = tags[pick(tags, ([, ts]) => ts.length, rand())];
    const t2 = tags[pick(tags, ([, ts]) => ts.length, rand())];
    const pool = [...new Map([...t1[1], ...t2[1]].map((t) => [t.objectID, t])).values()];
    const n = Math.min(pool.length, 6 + Math.floor(rand() * 10));
    const start = end.getTime() - (users - u) * 60_000 - n * hour;
    for (let k = 0; k < n; k++) {
      const talk = pool.splice(pick(pool, (t) => Math.sqrt(t.viewed_count), rand()), 1)[0];
      const at = new Date(start + k * hour);
      const item = `ted-${talk.objectID}`;
      const metadata = { duration_range: talk.duration_range };
      events.push({ user, item, type: 'view', at, metadata });
      const pos = POSITIVE.reduce((s, k2) => s + Number(talk[k2] ?? 0), 0);
      const all = ALL.reduce((s, k2) => s + Number(talk[k2] ?? 0), 0) || 1;
      if (rand() < (0.5 * pos) / all) events.push({ user, item, type: 'like', at: new Date(at.getTime() + 60_000), metadata });
      if (k === n - 1) heldOut.set(user, item);
    }
  }
  return { events, heldOut };
}
