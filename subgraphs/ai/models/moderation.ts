// Text moderation for hate, violence, sexual content and spam. Lexicon and rule based (no offline
// toxicity model exists): obscenity 0.4.6 (MIT) finds obfuscated profanity, slurs and sexual
// terms ("f*cking", "sh1t"); our own patterns (moderation.lexicon.ts) find threats, dehumanising
// statements about groups and spam signals.
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { HATE_RULES, OBSCENITY_CATEGORY, SPAM_RULES, VIOLENCE_RULES, type Rule } from './moderation.lexicon.js';
import { round } from './sentiment.js';

export const MODERATION_CATEGORIES = ['hate', 'violence', 'sexual', 'spam'] as const;
export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];

/** A category is flagged at this score; the action is `block` at BLOCK, `review` at REVIEW. */
export const FLAG_THRESHOLD = 0.5;
export const BLOCK_THRESHOLD = 0.8;

export interface ModerationResult {
  flagged: boolean;
  action: 'allow' | 'review' | 'block';
  categories: Record<string, { flagged: boolean; score: number }>;
}

const RULES: Record<ModerationCategory, Rule[]> = { hate: HATE_RULES, violence: VIOLENCE_RULES, sexual: [], spam: SPAM_RULES };

export class TextModerator {
  private readonly matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });

  moderate(text: string, categories: readonly ModerationCategory[] = MODERATION_CATEGORIES): ModerationResult {
    const sums: Record<ModerationCategory | 'profanity', number> = { hate: 0, violence: 0, sexual: 0, spam: 0, profanity: 0 };
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
    // Profanity alone is not a category; aimed at the reader ("you f*cking …") it counts as abuse (hate).
    if (sums.profanity && /\b(?:you|u|ur|your)\b/iu.test(text)) sums.hate += sums.profanity;
    for (const cat of MODERATION_CATEGORIES) for (const r of RULES[cat]) sums[cat] += (text.match(r.re)?.length ?? 0) * r.weight;
    sums.spam += capsShouting(text);

    const out: ModerationResult['categories'] = {};
    let worst = 0;
    for (const cat of categories) {
      const score = round(1 - Math.exp(-sums[cat]));
      out[cat] = { flagged: score >= FLAG_THRESHOLD, score };
      worst = Math.max(worst, score);
    }
    const action = worst >= BLOCK_THRESHOLD ? 'block' : worst >= FLAG_THRESHOLD ? 'review' : 'allow';
    return { flagged: worst >= FLAG_THRESHOLD, action, categories: out };
  }
}

/** Mostly capital letters over a longer text is a spam signal (0.6). */
function capsShouting(text: string): number {
  const letters = text.match(/\p{L}/gu) ?? [];
  if (letters.length < 20) return 0;
  const upper = letters.filter((c) => c !== c.toLowerCase()).length;
  return upper / letters.length > 0.6 ? 0.6 : 0;
}
