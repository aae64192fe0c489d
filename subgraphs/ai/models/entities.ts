// Named entities with character offsets, from three sources (none is a statistical NER: no such
// model ships offline):
//  - compromise 14.17.0 (MIT): PERSON, ORG, LOCATION from its lexicon and grammar rules;
//  - wink-nlp 2.4.0 with wink-eng-lite-web-model 1.8.1 (MIT): DATE and MONEY patterns;
//  - maintained lists (gazetteers.ts) for EVENT, WORK_OF_ART, PRODUCT and well-known ORGs, plus
//    the caller's own product names for PRODUCT.
// Overlaps are resolved once: the more precise source wins, then the longer span.
import nlp from 'compromise';
import { EVENTS, ORGANIZATIONS, PRODUCTS, WORKS_OF_ART } from './gazetteers.js';
import type { ItemEntity, ItemSentence } from 'wink-nlp';
import { tokenOffsets, type Wink, type WinkDoc } from './wink.js';

export const ENTITY_TYPES = ['PERSON', 'ORG', 'LOCATION', 'DATE', 'MONEY', 'PRODUCT', 'EVENT', 'WORK_OF_ART'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface Entity {
  text: string;
  type: EntityType;
  start: number;
  end: number;
  confidence: number;
}

type Source = 'list' | 'catalog' | 'wink' | 'compromise';

/**
 * Confidence of an entity = the precision its source and type reached on the labelled set
 * test/ai-quality/entities.json (see docs/ai.md, Quality); a list match is exact by construction.
 */
const CONFIDENCE: Record<Source, number> = { catalog: 0.95, list: 0.95, wink: 0.6, compromise: 0.9 };
const PRIORITY: Record<Source, number> = { catalog: 4, list: 3, wink: 2, compromise: 1 };

interface Candidate extends Entity {
  source: Source;
}

const WORD = '[\\p{L}\\p{N}]';

function phraseMatcher(phrases: readonly string[], flags = 'gu'): RegExp | null {
  const clean = [...new Set(phrases.map((p) => p.trim()).filter((p) => p.length > 1))].sort((a, b) => b.length - a.length);
  if (!clean.length) return null;
  const alt = clean.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return new RegExp(`(?<!${WORD})(?:${alt})(?!${WORD})`, flags);
}

const LISTS: Array<[EntityType, RegExp]> = [
  ['EVENT', phraseMatcher(EVENTS)!],
  ['WORK_OF_ART', phraseMatcher(WORKS_OF_ART)!],
  ['PRODUCT', phraseMatcher(PRODUCTS)!],
  ['ORG', phraseMatcher(ORGANIZATIONS)!],
];

export class EntityRecognizer {
  constructor(private readonly wink: Wink) {}

  /**
   * Entities of `types` (all when empty); `productNames` are the caller's catalogue names
   * (case-insensitive). `lists: false` leaves the maintained lists out (the quality bench's baseline).
   */
  recognize(text: string, types: readonly EntityType[] = [], productNames: readonly string[] = [], opts: { lists?: boolean } = {}): Entity[] {
    const wanted = new Set<EntityType>(types.length ? types : ENTITY_TYPES);
    const found: Candidate[] = [];
    const add = (type: EntityType, start: number, end: number, source: Source) => {
      if (!wanted.has(type)) return;
      [start, end] = trim(text, start, end);
      if (end <= start) return;
      found.push({ text: text.slice(start, end), type, start, end, confidence: CONFIDENCE[source], source });
    };

    const catalog = phraseMatcher(productNames, 'giu');
    if (catalog && wanted.has('PRODUCT')) for (const m of text.matchAll(catalog)) add('PRODUCT', m.index, m.index + m[0].length, 'catalog');
    if (opts.lists !== false) for (const [type, re] of LISTS) if (wanted.has(type)) for (const m of text.matchAll(re)) add(type, m.index, m.index + m[0].length, 'list');

    const dates = wanted.has('DATE') || wanted.has('MONEY');
    const names = wanted.has('PERSON') || wanted.has('ORG') || wanted.has('LOCATION');
    if (!dates && !names) return resolveOverlaps(found);
    const its = this.wink.its;
    const doc = this.wink.readDoc(text);
    const offsets = tokenOffsets(this.wink, doc, text);
    if (dates) {
      doc.entities().each((e: ItemEntity) => {
        const type = e.out(its.type) as string;
        if (type !== 'DATE' && type !== 'MONEY') return;
        const [first, last] = e.out(its.span) as unknown as [number, number];
        add(type, offsets[first][0], offsets[last][1], 'wink');
      });
    }

    if (names) {
      for (const [from, to] of nameSpans(this.wink, doc, offsets)) {
        const part = nlp(text.slice(from, to));
        const views: Array<[EntityType, { json(o: object): Array<{ offset: { start: number; length: number } }> }]> = [
          ['PERSON', part.people()],
          ['ORG', part.organizations()],
          ['LOCATION', part.places()],
        ];
        for (const [type, view] of views) {
          if (!wanted.has(type)) continue;
          for (const m of view.json({ offset: true })) add(type, from + m.offset.start, from + m.offset.start + m.offset.length, 'compromise');
        }
      }
    }
    return resolveOverlaps(found);
  }
}

/** compromise's own lexicon: a sentence's first word it knows as a common word ("Good", "When") is no name there. */
const LEXICON = (nlp as unknown as { model(): { one: { lexicon: Record<string, string | string[]> } } }).model().one.lexicon;
const COMMON_TAG = /^(Adjective|Adverb|Determiner|Preposition|Conjunction|Pronoun|QuestionWord|Modal|Copula|Negative|Expression|Verb|Infinitive|PastTense|Gerund|Auxiliary)/;

/**
 * The character spans compromise reads. compromise tags every word it is given (about 15 ms of CPU
 * per 1,000 characters), yet PERSON, ORG and LOCATION are names: it reads only the clauses that hold
 * a name-like token, runs of neighbouring ones together. A clause is a sentence, or a part of one
 * that a comma or semicolon and a coordinating conjunction separate (", and I still remember…").
 * Name-like: a proper noun by wink's tagger (a sentence's first word only when compromise does not
 * know it as a common word: "Good", "When"), or a capital letter in any later word but "I".
 * docs/ai.md, Speed.
 */
function nameSpans(wink: Wink, doc: WinkDoc, offsets: Array<[number, number]>): Array<[number, number]> {
  const its = wink.its;
  const values = doc.tokens().out(its.value) as string[];
  const pos = doc.tokens().out(its.pos) as string[];
  const clauses: Array<[number, number]> = [];
  doc.sentences().each((s: ItemSentence) => {
    const [first, end] = s.out(its.span) as unknown as [number, number];
    let from = first;
    for (let i = first + 1; i < end; i++) {
      if ((values[i] === ',' || values[i] === ';') && pos[i + 1] === 'CCONJ') {
        clauses.push([from, i]);
        from = i + 1;
      }
    }
    clauses.push([from, end]);
  });
  const starts = new Set<number>();
  doc.sentences().each((s: ItemSentence) => starts.add((s.out(its.span) as unknown as [number, number])[0]));
  const spans: Array<[number, number]> = [];
  let previous = false;
  for (const [first, end] of clauses) {
    let named = starts.has(first) ? pos[first] === 'PROPN' && !COMMON_TAG.test(String(LEXICON[values[first].toLowerCase()] ?? '')) : nameLike(values[first], pos[first]);
    for (let i = first + 1; i <= end && !named; i++) named = nameLike(values[i], pos[i]);
    if (named && previous) spans[spans.length - 1][1] = offsets[end][1];
    else if (named) spans.push([offsets[first][0], offsets[end][1]]);
    previous = named;
  }
  return spans;
}

const nameLike = (value: string, pos: string) => pos === 'PROPN' || (value !== 'I' && /\p{Lu}/u.test(value));

/** Leading and trailing punctuation and spaces are not part of a name ("Microsoft." → "Microsoft"). */
function trim(text: string, start: number, end: number): [number, number] {
  while (start < end && /[\s.,;:!?"'()[\]{}«»“”‘’]/u.test(text[start])) start++;
  while (end > start && /[\s.,;:!?"'()[\]{}«»“”‘’]/u.test(text[end - 1])) end--;
  // a possessive 's belongs to the sentence, not to the name
  if (/['’]s$/u.test(text.slice(start, end)) && end - start > 2) end -= 2;
  return [start, end];
}

function resolveOverlaps(found: Candidate[]): Entity[] {
  const ranked = [...found].sort((a, b) => PRIORITY[b.source] - PRIORITY[a.source] || b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: Candidate[] = [];
  for (const c of ranked) if (!kept.some((k) => c.start < k.end && k.start < c.end)) kept.push(c);
  return kept.sort((a, b) => a.start - b.start).map(({ source: _s, ...e }) => e);
}
