// Meilisearch's ranking score (`showRankingScore`, `showRankingScoreDetails`, `rankingScoreThreshold`):
// a number from 0 to 1 per hit, read off the same rule keys the bucket sort orders by (steps.ts), so
// it never rises along the ranked list where the text rules come before sort rules (the default).
// Each text rule gives a document a rank from 1 to its maximum (higher is better); the ranks are
// merged lexicographically in the rules' order, as Meilisearch merges them (Rank::merge): the first
// rule weighs most, the next one splits each of its steps, and so on; the score is the merged rank
// over the merged maximum. Sort rules, custom attribute rules and geo sorts give no score (their
// values show in the details).
//   words      matched words (counted as the words rule counts them) over the query's words
//   typo       (budget + 1 - typos) over (budget + 1), the budget being the matched words' typo budgets
//   proximity  (8·pairs − distance + 1) over (7·pairs + 1), pairs = matched words − 1 (none: full)
//   attribute  the attribute ranks of the matched words' best attributes, then their positions (past
//              the words side by side from an attribute's start, up to 8 a word)
//   exactness  an attribute equal to the query > every matched word exact > fewer words inexact
// A placeholder search scores 1 everywhere. Only the ranked page's documents are scored (≤ 1,000).
import type { MatchData } from './match.js';
import type { Rule, SortCriterion } from './ranking.js';
import { mark, release } from './sort-scratch.js';
import { attributeKeys, exactnessKeys, MAX_PROXIMITY, proximityKeys, typoKeys } from './steps.js';

/** positions per matched word the attribute score still tells apart */
const POSITION_STEPS = 8;

interface Rank {
  rank: number;
  max: number;
}

export interface ScoreContext {
  rules: readonly Rule[];
  match: MatchData | null;
  sort: readonly SortCriterion[];
  /** attribute ranks (the searchable attributes, or the fields seen with '*') */
  attributes: number;
  /** a sort criterion's value on a document, for the details */
  sortValue: (c: SortCriterion, id: number) => unknown;
}

export interface Scored {
  scores: Float64Array;
  /** per document, when asked: rule → { order, score, ... } */
  details?: Record<string, Record<string, unknown>>[];
}

/** Ranking scores of `ids` (ranked documents), with their details when `withDetails`. */
export function rankingScores(ctx: ScoreContext, ids: readonly number[], withDetails: boolean): Scored {
  const n = ids.length;
  const merged: Rank[] = Array.from({ length: n }, () => ({ rank: 1, max: 1 }));
  const details = withDetails ? Array.from({ length: n }, () => ({}) as Record<string, Record<string, unknown>>) : undefined;
  const m = ctx.match;
  const docs = Int32Array.from(ids);
  let order = 0;
  for (const rule of ctx.rules) {
    if (rule.kind === 'sort') {
      for (const c of ctx.sort) {
        if (details) ids.forEach((id, i) => (details[i][sortName(c)] = { order, value: ctx.sortValue(c, id) ?? null }));
        order++;
      }
      continue;
    }
    if (rule.kind === 'custom') {
      const c: SortCriterion = { kind: 'field', attr: rule.attr, desc: rule.desc };
      if (details) ids.forEach((id, i) => (details[i][sortName(c)] = { order, value: ctx.sortValue(c, id) ?? null }));
      order++;
      continue;
    }
    if (!m) continue;
    const ranks = ruleRanks(rule.kind, m, docs, ctx.attributes);
    for (let i = 0; i < n; i++) {
      const r = ranks[i];
      merged[i] = { rank: (Math.max(1, merged[i].rank) - 1) * r.rank.max + r.rank.rank, max: merged[i].max * r.rank.max };
      if (details) details[i][rule.kind] = { order, ...r.detail, score: round(r.rank.rank / r.rank.max) };
    }
    order++;
  }
  const scores = Float64Array.from(merged, (r) => r.rank / r.max);
  return details ? { scores, details } : { scores };
}

export const round = (x: number) => Math.round(x * 1e6) / 1e6;

function sortName(c: SortCriterion): string {
  return c.kind === 'geo' ? `_geoPoint(${c.lat}, ${c.lng}):${c.desc ? 'desc' : 'asc'}` : `${c.attr}:${c.desc ? 'desc' : 'asc'}`;
}

/** One text rule's ranks for `docs` (its keys read while the scratch arrays are held, then released). */
function ruleRanks(kind: 'words' | 'typo' | 'proximity' | 'attribute' | 'exactness', m: MatchData, docs: Int32Array, attributes: number): { rank: Rank; detail: Record<string, unknown> }[] {
  const held = mark();
  try {
    const n = m.words.length;
    const matched = (i: number) => m.matched[docs[i]];
    const out: { rank: Rank; detail: Record<string, unknown> }[] = [];
    switch (kind) {
      case 'words': {
        for (let i = 0; i < docs.length; i++) out.push({ rank: { rank: matched(i), max: n }, detail: { matchingWords: matched(i), maxMatchingWords: n } });
        return out;
      }
      case 'typo': {
        const keys = typoKeys(m, docs);
        for (let i = 0; i < docs.length; i++) {
          let budget = 0;
          for (let w = 0; w < matched(i); w++) budget += m.words[w].maxTypos;
          out.push({ rank: { rank: budget + 1 - keys[i], max: budget + 1 }, detail: { typoCount: keys[i], maxTypoCount: budget } });
        }
        return out;
      }
      case 'proximity': {
        const keys = n > 1 ? proximityKeys(m, docs) : null;
        for (let i = 0; i < docs.length; i++) {
          const pairs = matched(i) - 1;
          const rank = keys && pairs > 0 ? { rank: MAX_PROXIMITY * pairs - keys[i] + 1, max: (MAX_PROXIMITY - 1) * pairs + 1 } : { rank: 1, max: 1 };
          out.push({ rank, detail: {} });
        }
        return out;
      }
      case 'attribute': {
        const keys = attributeKeys(m, docs);
        for (let i = 0; i < docs.length; i++) {
          const k = matched(i);
          const attrMax = (attributes - 1) * k;
          const attrs = Math.floor(keys[i] / 65536);
          const posMax = POSITION_STEPS * k;
          // k words side by side from an attribute's start (0 + 1 + … + k−1) is the best they can stand
          const pos = Math.min(Math.max(0, (keys[i] % 65536) - (k * (k - 1)) / 2), posMax);
          const a = { rank: attrMax - Math.min(attrs, attrMax) + 1, max: attrMax + 1 };
          const p = { rank: posMax - pos + 1, max: posMax + 1 };
          out.push({
            rank: { rank: (a.rank - 1) * p.max + p.rank, max: a.max * p.max },
            detail: { attributeRankingOrderScore: round(a.rank / a.max), queryWordDistanceScore: round(p.rank / p.max) },
          });
        }
        return out;
      }
      case 'exactness': {
        const keys = exactnessKeys(m, docs);
        for (let i = 0; i < docs.length; i++) {
          const inexact = keys[i] === 0 ? 0 : keys[i] - 64;
          const whole = keys[i] === 0;
          const rank = whole ? n + 2 : n + 1 - inexact;
          out.push({ rank: { rank, max: n + 2 }, detail: { matchType: whole ? 'exactMatch' : inexact === 0 ? 'allWordsExact' : 'noExactMatch', inexactWords: inexact } });
        }
        return out;
      }
    }
  } finally {
    release(held);
  }
}
