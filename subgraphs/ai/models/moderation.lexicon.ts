// Rule and lexicon data of text moderation (moderation.ts). Weights add up per category; a
// category's score is 1 − e^(−sum), so one strong signal (2.0) scores 0.86 and a weak one (0.7) 0.5.
// obscenity's English dataset words are sorted into categories here.
export const OBSCENITY_CATEGORY: Record<string, { category: 'hate' | 'sexual' | 'profanity'; weight: number }> = {};
const slurs = ['abo', 'abeed', 'africoon', 'arabush', 'boonga', 'chingchong', 'chink', 'dyke', 'fag', 'kike', 'negro', 'nigger', 'retard', 'spastic', 'tranny'];
const sexual = [
  'anal', 'anus', 'bestiality', 'blowjob', 'boob', 'buttplug', 'cock', 'cum', 'deepthroat', 'dick', 'dildo', 'doggystyle', 'double penetration',
  'ejaculate', 'felch', 'fellatio', 'finger bang', 'fisting', 'gangbang', 'handjob', 'hentai', 'hooker', 'incest', 'jerk off', 'jizz', 'lubejob',
  'masturbate', 'orgasm', 'orgy', 'penis', 'porn', 'pussy', 'rape', 'semen', 'sex', 'slut', 'tit', 'twat', 'vagina', 'wank', 'whore',
];
const profanity = ['arse', 'ass', 'bastard', 'bitch', 'bollocks', 'cuck', 'cunt', 'piss', 'prick', 'scat', 'shit', 'turd', 'fuck'];
for (const w of slurs) OBSCENITY_CATEGORY[w] = { category: 'hate', weight: 2.5 };
for (const w of sexual) OBSCENITY_CATEGORY[w] = { category: 'sexual', weight: 1.2 };
for (const w of profanity) OBSCENITY_CATEGORY[w] = { category: 'profanity', weight: 0.4 };

export interface Rule {
  re: RegExp;
  weight: number;
  /** first-person intent that no reporting, technical or clinical context lowers */
  strong?: boolean;
}

const GROUPS =
  '(?:immigrants?|migrants?|refugees?|foreigners?|muslims?|jews?|christians?|hindus?|sikhs?|buddhists?|atheists?|blacks?|whites?|asians?|arabs?|mexicans?|africans?|indians?|chinese|gays?|lesbians?|homosexuals?|trans(?:gender)? (?:people|women|men)|women|girls|disabled people|gypsies|roma)';

export const HATE_RULES: Rule[] = [
  { re: new RegExp(`\\b(?:all|those|these|the|most)?\\s*${GROUPS} (?:are|r) (?:all )?(?:animals|vermin|subhuman|parasites|scum|inferior|filth|rats|cockroaches|savages|a disease|a plague|trash|garbage|evil)\\b`, 'giu'), weight: 2.2 },
  { re: new RegExp(`\\b${GROUPS} (?:should|must|need to|deserve to) (?:all )?(?:die|be killed|be exterminated|be wiped out|be deported|go back|be banned|burn|suffer)\\b`, 'giu'), weight: 2.5 },
  { re: new RegExp(`\\bi (?:hate|despise|can't stand) (?:all )?${GROUPS}\\b`, 'giu'), weight: 1.8 },
  { re: /\bgo back to (?:your|ur) (?:own )?country\b/giu, weight: 1.6 },
  { re: /\b(?:white|racial) (?:power|supremacy)\b|\bheil hitler\b|\bgas the\b/giu, weight: 2.2 },
];

export const VIOLENCE_RULES: Rule[] = [
  // threats: a first person who will hurt someone
  { re: /\b(?:i(?:'ll| will| am going to|'m going to|'m gonna| gonna)|we(?:'ll| will| are going to|'re going to)) (?:\w+ )?(?:kill|murder|shoot|stab|hurt|beat|strangle|choke|burn|bomb|destroy|slaughter|break your)\b/giu, weight: 2.5 },
  { re: /\b(?:kill|murder|shoot|stab|strangle|behead|hang) (?:you|him|her|them|yourself|everyone|u)\b/giu, weight: 2.0 },
  { re: /\b(?:hope|wish) (?:you|u) (?:die|get killed|get hurt|get shot)\b|\b(?:you|u) (?:should|deserve to) die\b|\bkys\b/giu, weight: 2.0 },
  { re: /\b(?:massacre|genocide|slaughter|behead(?:ed|ing)?|tortur(?:e|ed|ing)|mass shooting|terrorist attack|blow (?:it|them|you|this place) up|bomb threat)\b/giu, weight: 1.2 },
  { re: /\b(?:murder(?:ed|ing)?|kill(?:ed|ing)?|stabb(?:ed|ing)|shot dead|shooting|assault(?:ed)?|beat(?:en)? up|bloodshed|violent(?:ly)?|weapons?|guns?|knife|knives|rifle|explosives?)\b/giu, weight: 0.35 },
];

export const SPAM_RULES: Rule[] = [
  { re: /\b(?:click here|buy now|order now|act now|call now|limited time|apply now|sign up free|subscribe now)\b/giu, weight: 0.5 },
  { re: /\b(?:you(?:'ve| have)? won|winner|congratulations,? you|claim your (?:prize|reward|gift)|free (?:gift|money|iphone|prize|trial)|100% free|risk[- ]free|no cost)\b/giu, weight: 0.6 },
  { re: /\b(?:earn|make) \$?\d[\d,]*(?:k)? (?:a|per) (?:day|week|month)|\bwork from home\b|\bget rich\b|\bdouble your (?:money|income)\b/giu, weight: 1.2 },
  { re: /\b(?:viagra|cialis|casino|payday loans?|crypto (?:giveaway|signals)|bitcoin giveaway|weight loss pills?|cheap meds|replica watches)\b/giu, weight: 1.0 },
  { re: /\b(?:unsubscribe|dear (?:friend|customer|winner)|urgent(?:ly)? (?:reply|response)|wire transfer|bank details)\b/giu, weight: 0.6 },
  { re: /https?:\/\/\S+|\bwww\.\S+/giu, weight: 0.35 },
  { re: /(?:!{3,}|\${2,}|€{2,})/gu, weight: 0.5 },
];
