// Text moderation by intent (issue 31): three signals per category, combined.
//  1. Intent rules (moderation.intent.ts): who + a future or imperative verb + a harm, harm aimed at
//     oneself, insults aimed at the reader, statements against groups; lowered in reporting,
//     technical, clinical, fiction and quoting context ("police said", `kill -9`, anatomy).
//  2. Lexicon: obscenity 0.4.6 (MIT) for obfuscated profanity, slurs and sexual terms; our spam
//     signals and group rules (moderation.lexicon.ts).
//  3. The product's own classifier: the custom classifiers' softmax regression (classifiers/
//     softmax.model.ts) over words, bigrams, the glove-sif-100d word vectors and spam cue markers
//     (what it reads: moderation.features.ts), trained once on the labelled texts in
//     data/moderation-train.json (written for the purpose; the held-out part is
//     test/ai-quality/moderation/held-out.json, never trained on) and read from its derived-model
//     file at later starts (moderation.classifier.ts).
// A category's score is the larger of its rule score (damped by context) and the classifier's
// probability. `self_harm` and `harassment` are categories of their own when asked for; document
// 2's four categories hold them too: violence = max(violence, self_harm), hate = max(hate, harassment).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { indexOf, predict, type SoftmaxModel } from './softmax.model.js';
import { moderationClassifier } from './moderation.classifier.js';
import { HATE_RULES, OBSCENITY_CATEGORY, SPAM_RULES, VIOLENCE_RULES, type Rule } from './moderation.lexicon.js';
import {
  CONTEXT_ABOUT_SPAM,
  CONTEXT_CLINICAL,
  CONTEXT_FICTION,
  CONTEXT_QUOTING,
  CONTEXT_REPORTING,
  CONTEXT_TECHNICAL,
  INTENT_HARASSMENT,
  INTENT_HATE,
  INTENT_SCAM,
  INTENT_SELF_HARM,
  INTENT_SEXUAL,
  INTENT_SPAM,
  INTENT_VIOLENCE,
} from './moderation.intent.js';
import { classifierInput } from './moderation.features.js';
import { round } from './sentiment.js';

/** Document 2's categories: the default answer. */
export const MODERATION_CATEGORIES = ['hate', 'violence', 'sexual', 'spam'] as const;
/** Every category a caller may ask for. */
export const ALL_MODERATION_CATEGORIES = [...MODERATION_CATEGORIES, 'self_harm', 'harassment'] as const;
export type ModerationCategory = (typeof ALL_MODERATION_CATEGORIES)[number];

/** A category is flagged at this score; the action is `block` at BLOCK, `review` at REVIEW. */
export const FLAG_THRESHOLD = 0.5;
export const BLOCK_THRESHOLD = 0.8;
/** Rule scores (but first-person intent) and classifier scores are multiplied by this in reporting, technical,
 *  clinical, fiction or quoting context. */
export const CONTEXT_DAMPING = 0.4;
/** The classifier's probability at which each category is flagged, chosen by 5-fold cross-validation on the
 *  training part (never the held-out part): the lowest that keeps hard negatives ≤ 5 % (docs/ai.md, Moderation). */
export const CLASSIFIER_FLAG_AT: Record<ModerationCategory, number> = { hate: 0.8, violence: 0.5, sexual: 0.5, spam: 0.75, self_harm: 0.5, harassment: 0.5 };

export const MODERATION_TRAINING_FILE = resolve(import.meta.dirname, 'data', 'moderation-train.json');
const NONE = 'none';

export interface ModerationResult {
  flagged: boolean;
  action: 'allow' | 'review' | 'block';
  categories: Record<string, { flagged: boolean; score: number }>;
}

/** What each signal said, for the quality bench and tests. */
export interface ModerationSignals {
  rules: Record<ModerationCategory, number>;
  classifier: Record<ModerationCategory, number>;
  context: boolean;
}

const RULES: Record<ModerationCategory, Rule[]> = {
  hate: [...HATE_RULES, ...INTENT_HATE],
  violence: [...VIOLENCE_RULES, ...INTENT_VIOLENCE],
  sexual: INTENT_SEXUAL,
  spam: [...SPAM_RULES, ...INTENT_SPAM, ...INTENT_SCAM],
  self_harm: INTENT_SELF_HARM,
  harassment: INTENT_HARASSMENT,
};
/** Categories whose rule scores context lowers (spam only by its own context, CONTEXT_ABOUT_SPAM). */
const DAMPED: ReadonlySet<ModerationCategory> = new Set(['hate', 'violence', 'sexual', 'self_harm', 'harassment']);

export interface LabelledText {
  text: string;
  label: string;
}

export function readTrainingSet(file = MODERATION_TRAINING_FILE): LabelledText[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { items: LabelledText[] }).items;
}

export class TextModerator {
  private readonly matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  private readonly index: Map<string, number>;

  private constructor(private readonly model: SoftmaxModel) {
    this.index = indexOf(model);
  }

  /** The classifier of `examples` (the shipped training set by default): trained once (602 texts, 40 epochs:
   *  3–16 s on the shared 2-core machine) and read from its derived-model file afterwards (moderation.classifier.ts). */
  static async load(examples: readonly LabelledText[] = readTrainingSet()): Promise<TextModerator> {
    const labels = [NONE, ...ALL_MODERATION_CATEGORIES];
    return new TextModerator((await moderationClassifier(examples.map((e) => ({ text: classifierInput(e.text), label: e.label })), labels)).value);
  }

  signals(text: string): ModerationSignals {
    const sums: Record<ModerationCategory | 'profanity', number> = { hate: 0, violence: 0, sexual: 0, spam: 0, self_harm: 0, harassment: 0, profanity: 0 };
    const seen = new Set<string>();
    for (const m of this.matcher.getAllMatches(text)) {
      const word = englishDataset.getPayloadWithPhraseMetadata(m).phraseMetadata?.originalWord ?? '';
      const key = `${word}@${m.startIndex}`;
      const cat = OBSCENITY_CATEGORY[word];
      if (!cat || seen.has(key)) continue;
      seen.add(key);
      sums[cat.category] += cat.weight;
      if (word === 'rape') sums.violence += 1.5;
    }
    // Profanity alone is not a category; aimed at the reader ("you f*cking …") it is harassment.
    if (sums.profanity && /\b(?:you|u|ur|your)\b/iu.test(text)) sums.harassment += sums.profanity;
    const normalised = text.replace(/[’‘]/g, "'");
    const strong: Record<ModerationCategory, number> = { hate: 0, violence: 0, sexual: 0, spam: 0, self_harm: 0, harassment: 0 };
    for (const cat of ALL_MODERATION_CATEGORIES) {
      for (const r of RULES[cat]) (r.strong ? strong : sums)[cat] += (normalised.match(r.re)?.length ?? 0) * r.weight;
    }
    sums.spam += capsShouting(text);

    const quoting = CONTEXT_QUOTING.test(normalised);
    const context = quoting || [CONTEXT_TECHNICAL, CONTEXT_REPORTING, CONTEXT_CLINICAL, CONTEXT_FICTION].some((re) => re.test(normalised));
    const aboutSpam = CONTEXT_ABOUT_SPAM.test(normalised);
    const p = Object.fromEntries(predict(this.model, classifierInput(text), this.index).map((x) => [x.label, x.confidence]));
    const rules = {} as Record<ModerationCategory, number>;
    const classifier = {} as Record<ModerationCategory, number>;
    for (const cat of ALL_MODERATION_CATEGORIES) {
      const damp = (context && DAMPED.has(cat)) || (aboutSpam && cat === 'spam') ? CONTEXT_DAMPING : 1;
      // in context the words are there and the intent is not: their score is capped at CONTEXT_DAMPING;
      // first-person intent keeps its score, unless the text quotes or reports it
      const all = 1 - Math.exp(-(strong[cat] + sums[cat]));
      rules[cat] = Math.max((1 - Math.exp(-strong[cat])) * (quoting ? damp : 1), all * damp);
      classifier[cat] = calibrated(p[cat] ?? 0, CLASSIFIER_FLAG_AT[cat]) * damp;
    }
    return { rules, classifier, context };
  }

  /** Every category's combined score (before folding). */
  scores(text: string): Record<ModerationCategory, number> {
    const s = this.signals(text);
    const out = {} as Record<ModerationCategory, number>;
    for (const cat of ALL_MODERATION_CATEGORIES) out[cat] = Math.max(s.rules[cat], s.classifier[cat]);
    return out;
  }

  moderate(text: string, categories: readonly ModerationCategory[] = MODERATION_CATEGORIES): ModerationResult {
    const s = this.scores(text);
    // document 2's four categories hold the two that have no place among them
    const answer = (cat: ModerationCategory): number => (cat === 'violence' ? Math.max(s.violence, s.self_harm) : cat === 'hate' ? Math.max(s.hate, s.harassment) : s[cat]);
    return verdict(categories, Object.fromEntries(categories.map((c) => [c, answer(c)])));
  }
}

/** The answer for the requested categories from their scores: flagged at FLAG_THRESHOLD, the action by the worst. */
export function verdict(categories: readonly ModerationCategory[], scores: Partial<Record<ModerationCategory, number>>): ModerationResult {
  const out: ModerationResult['categories'] = {};
  let worst = 0;
  for (const cat of categories) {
    const score = round(scores[cat] ?? 0);
    out[cat] = { flagged: score >= FLAG_THRESHOLD, score };
    worst = Math.max(worst, score);
  }
  const action = worst >= BLOCK_THRESHOLD ? 'block' : worst >= FLAG_THRESHOLD ? 'review' : 'allow';
  return { flagged: worst >= FLAG_THRESHOLD, action, categories: out };
}

/** The classifier's probability mapped so that CLASSIFIER_FLAG_AT scores the flag threshold (piecewise linear). */
function calibrated(p: number, t: number): number {
  return p <= t ? (p / t) * FLAG_THRESHOLD : FLAG_THRESHOLD + ((p - t) / (1 - t)) * (1 - FLAG_THRESHOLD);
}

/** Mostly capital letters over a longer text is a spam signal (0.6). */
function capsShouting(text: string): number {
  const letters = text.match(/\p{L}/gu) ?? [];
  if (letters.length < 20) return 0;
  const upper = letters.filter((c) => c !== c.toLowerCase()).length;
  return upper / letters.length > 0.6 ? 0.6 : 0;
}
