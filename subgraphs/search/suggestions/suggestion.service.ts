// Suggestions (type-ahead) for a partial query, per the index's suggestion settings, from two
// sources (docs/search.md, "Suggestions"):
//  - past queries of the last 90 days that returned hits and start with the input (at a word
//    boundary), frequency = how often they were searched;
//  - values of `source_attributes` in documents matching the input, frequency = how many matching
//    documents hold the value (exact through facet counts when the attribute is filterable,
//    else counted over the best 200 hits).
// Ranked by frequency, then shorter first; the matched part is wrapped in <em>…</em>.
import { DomainError } from '../../../lib/errors.js';
import type { SearchContext } from '../context.js';
import { rows } from '../db.js';
import type { Document } from '../../../lib/search-engine/types.js';
import { placedSearch } from '../placement/placed-search.js';
import { getIndex } from '../indexes/index.service.js';
import { T } from '../sql.js';
import { defaultSuggestionSettings } from '../indexes/suggestion-settings.rules.js';

export interface Suggestion {
  suggestion: string;
  highlighted: string;
  frequency: number | null;
}

const SAMPLE = 200;
const PRE = '<em>';
const POST = '</em>';

/** Lower case, no diacritics, single spaces: what "starts with" compares. */
export function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function startsAtWord(value: string, q: string): boolean {
  const v = fold(value);
  return v.startsWith(q) || v.includes(` ${q}`);
}

/** Wrap the first word-boundary occurrence of the folded input `q` in the original text. */
export function highlight(text: string, q: string): string {
  if (!q) return text;
  const chars = [...text];
  let folded = '';
  const origin: number[] = []; // folded position → index in chars
  chars.forEach((ch, i) => {
    const f = /\s/.test(ch) ? ' ' : ch.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
    for (const c of f) {
      folded += c;
      origin.push(i);
    }
  });
  for (let p = folded.indexOf(q); p >= 0; p = folded.indexOf(q, p + 1)) {
    if (p > 0 && /[\p{L}\p{N}]/u.test(folded[p - 1])) continue;
    const start = origin[p];
    let end = origin[p + q.length - 1] + 1;
    while (end < chars.length && /^\p{M}+$/u.test(chars[end])) end++;
    return `${chars.slice(0, start).join('')}${PRE}${chars.slice(start, end).join('')}${POST}${chars.slice(end).join('')}`;
  }
  return text;
}

function values(doc: Document, attr: string): string[] {
  let v: unknown = doc;
  for (const p of attr.split('.')) v = v && typeof v === 'object' && !Array.isArray(v) ? (v as Document)[p] : undefined;
  const list = Array.isArray(v) ? v : [v];
  return list.filter((x): x is string | number => typeof x === 'string' || typeof x === 'number').map(String).filter((s) => s.trim() && s.length <= 200);
}

export async function suggest(ctx: SearchContext, uid: string, input: { query: string; limit?: number | null; highlight?: boolean | null }) {
  const started = performance.now();
  const index = await getIndex(ctx, uid);
  const s = { ...defaultSuggestionSettings(), ...(index.suggestionSettings ?? {}) };
  if (typeof input.query !== 'string') throw new DomainError('VALIDATION_FAILED', 'query is required', { parameter: 'query' });
  if (input.limit != null && (!Number.isInteger(input.limit) || input.limit < 1 || input.limit > 100)) {
    throw new DomainError('BAD_REQUEST', 'limit must be an integer from 1 to 100', { parameter: 'limit' });
  }
  const q = fold(input.query).slice(0, 200);
  const limit = Math.min(input.limit ?? s.max_suggestions, s.max_suggestions);
  const done = (list: Suggestion[]) => ({ suggestions: list, processingTimeMs: Math.round(performance.now() - started) });
  if (!s.enabled || q.length < Math.max(1, s.min_query_length)) return done([]);

  const found = new Map<string, { text: string; frequency: number }>();
  const add = (text: string, n: number) => {
    const key = fold(text);
    const cur = found.get(key);
    if (cur) cur.frequency += n;
    else found.set(key, { text, frequency: n });
  };

  const rt = ctx.runtime;
  await rt.analytics.flush(); // this process's latest searches count too
  const past = await rows<{ query: string; n: string }>(
    rt.pool,
    `select query, count(*) as n from ${T.queries}
      where index_id = $1 and created_at > now() - interval '90 days' and (hits is null or hits > 0)
        and (query like $2 escape '\\' or query like $3 escape '\\')
      group by query order by n desc, query limit $4`,
    [index.id, `${escapeLike(q)}%`, `% ${escapeLike(q)}%`, limit * 4],
  );
  for (const p of past) add(p.query, Number(p.n));

  if (s.source_attributes.length) {
    const filterable = new Set(index.settings.filterable_attributes ?? []);
    const facets = s.source_attributes.filter((a) => filterable.has(a));
    const r = await placedSearch(ctx, index, {
      query: input.query,
      limit: SAMPLE,
      attributesToRetrieve: s.source_attributes,
      attributesToHighlight: [],
      showMatchesPosition: false,
      ...(facets.length ? { facets } : {}),
    });
    for (const attr of s.source_attributes) {
      const dist = r.facetDistribution?.[attr];
      if (dist) {
        for (const [value, n] of Object.entries(dist)) if (startsAtWord(value, q)) add(value, n);
        continue;
      }
      const counts = new Map<string, number>();
      for (const hit of r.hits) for (const v of new Set(values(hit, attr))) if (startsAtWord(v, q)) counts.set(v, (counts.get(v) ?? 0) + 1);
      for (const [v, n] of counts) add(v, n);
    }
  }

  const ranked = [...found.values()].sort((a, b) => b.frequency - a.frequency || a.text.length - b.text.length || a.text.localeCompare(b.text)).slice(0, limit);
  return done(
    ranked.map((x) => ({
      suggestion: x.text,
      highlighted: input.highlight === false ? x.text : highlight(x.text, q),
      frequency: s.include_frequency ? x.frequency : null,
    })),
  );
}
