// What the two statistical detectors confuse, decided by the letters and words of the languages
// (issue 31 item 5). Written from the languages' alphabets and common function words, not from the
// held-out texts of test/ai-quality/language-close-pairs.json.

/**
 * The Cyrillic languages a letter settles: Serbian (ђ ћ џ, or ј without Macedonian's ѓ ќ ѕ),
 * Macedonian (ѓ ќ ѕ), Belarusian (ў, or і beside ы/э), Ukrainian (ї є ґ, or і without ы/э).
 * Null when the letters do not settle it (Russian and Bulgarian share theirs).
 */
export function cyrillicByLetters(text: string): string | null {
  const t = text.toLowerCase();
  if (!/[\u0400-\u04ff]/.test(t)) return null;
  if (/[ѓќѕ]/.test(t)) return 'mk';
  if (/[ђћџ]/.test(t) || /ј/.test(t)) return 'sr';
  if (/ў/.test(t)) return 'be';
  if (/[їєґ]/.test(t)) return 'uk';
  if (/і/.test(t)) return /[ыэ]/.test(t) ? 'be' : 'uk';
  return null;
}

/** Marker words and spellings of the close Latin pairs, one list per language. */
const MARKERS: Record<string, RegExp[]> = {
  pt: [/[ãõ]/, /ção|ções|lh|(?<!u)nh/, /\b(?:não|em|um|uma|umas|você|muito|também|são|nós|está|então|comboio|obrigad[oa])\b/],
  gl: [/\b(?:non|unha|unhas|dúas|aínda|xa|moi|tamén|pola|polo|cando|despois|coa|nunha|xoves|xente|grazas|traballo)\b/, /\b\w+(?:ou|ei|amos|aron)(?:se|nos|me|lle|lles|vos)\b/, /\bx[aeiouá]/],
  es: [/ñ/, /\b(?:el|los|las|del|una|muy|también|pero|después|todavía|gracias|jueves|hoy)\b/, /ción\b/],
  ms: [/\b(?:baharu|minit|mesyuarat|boleh(?:kah)?|bandar|selepas|daripada|kerana|wang|sahaja|hantar|pejabat|percuma|sila|kereta api|lapangan terbang|mencuba|dengan segera|awak)\b/],
  id: [/\b(?:baru|menit|rapat|bisa(?:kah)?|kota|setelah|karena|uang|saja|kantor|gratis|silakan|bandara|mencoba|kirim(?:kan)?|mengirim(?:kan)?|kamu|nggak|enggak)\b/],
};

/** Which of `langs` the markers favour, or null on a tie at the top (then the detectors decide). */
export function byMarkers(text: string, langs: readonly string[]): string | null {
  const t = text.toLowerCase();
  const scores = langs.map((l) => ({ l, n: (MARKERS[l] ?? []).reduce((s, re) => s + (t.match(new RegExp(re.source, 'g'))?.length ?? 0), 0) }));
  scores.sort((a, b) => b.n - a.n);
  return scores[0].n > (scores[1]?.n ?? 0) ? scores[0].l : null;
}

/** Groups whose members the detectors confuse; a guess inside a group is checked by markers. */
export const CLOSE_GROUPS: ReadonlyArray<readonly string[]> = [
  ['pt', 'gl', 'es', 'ast'],
  ['ms', 'id'],
];

/** The script of languages not written in Latin letters (the ones lid.176 and ELD both know). */
const SCRIPT_OF: Record<string, RegExp> = {};
const scripts: Array<[RegExp, string[]]> = [
  [/\p{Script=Greek}/u, ['el']],
  [/\p{Script=Cyrillic}/u, ['ru', 'uk', 'be', 'bg', 'sr', 'mk', 'kk', 'ky', 'tg', 'mn', 'ba', 'tt', 'cv', 'os', 'ce', 'sah']],
  [/\p{Script=Arabic}/u, ['ar', 'fa', 'ur', 'ps', 'ckb', 'sd', 'ug', 'arz', 'azb', 'pnb', 'mzn']],
  [/\p{Script=Hebrew}/u, ['he', 'yi']],
  [/\p{Script=Devanagari}/u, ['hi', 'mr', 'ne', 'sa', 'new', 'bh', 'mai']],
  [/\p{Script=Han}/u, ['zh', 'wuu', 'yue']],
  [/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u, ['ja']],
  [/\p{Script=Hangul}/u, ['ko']],
  [/\p{Script=Thai}/u, ['th']],
  [/\p{Script=Georgian}/u, ['ka']],
  [/\p{Script=Armenian}/u, ['hy']],
  [/\p{Script=Bengali}/u, ['bn', 'as']],
  [/\p{Script=Tamil}/u, ['ta']],
];
for (const [re, langs] of scripts) for (const l of langs) SCRIPT_OF[l] = re;

/** Whether `text` has letters of the script `language` is written in (Latin for the others). */
export function writtenIn(text: string, language: string): boolean {
  const letters = text.replace(/[^\p{L}]/gu, '');
  if (!letters) return true;
  const re = SCRIPT_OF[language] ?? /\p{Script=Latin}/u;
  const g = new RegExp(re.source, 'gu');
  return (letters.match(g)?.length ?? 0) >= letters.length / 2;
}
