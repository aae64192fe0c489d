// The built-in embedding model `hashed-ngrams-384`: the hashing trick (Weinberger et al. 2009) over
// word unigrams, word bigrams and character 3-grams of each word (fastText-style subwords), with
// sublinear term frequency, a signed 32-bit FNV-1a hash into 384 dimensions, and L2 normalisation.
// No weights: it measures shared words and word pieces (lexical similarity), not meaning.
// One copy for the whole system: the AI service's embeddings and the search engine's hybrid search
// (lib/search-engine/vectors.ts) both call it, so a vector from one is comparable with the other's.
export const HASHED_MODEL = 'hashed-ngrams-384';
export const HASHED_DIMENSIONS = 384;

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

export function wordTokens(text: string): string[] {
  return (text.toLowerCase().normalize('NFC').match(TOKEN) ?? []);
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function hashedEmbedding(text: string): { vector: number[]; tokens: number } {
  const words = wordTokens(text);
  const counts = new Map<string, number>();
  const add = (feature: string, w: number) => counts.set(feature, (counts.get(feature) ?? 0) + w);
  for (let i = 0; i < words.length; i++) {
    add(`w:${words[i]}`, 1);
    if (i + 1 < words.length) add(`b:${words[i]} ${words[i + 1]}`, 0.5);
    const padded = `<${words[i]}>`;
    const grams = Math.max(1, padded.length - 2);
    for (let j = 0; j + 3 <= padded.length; j++) add(`c:${padded.slice(j, j + 3)}`, 0.5 / grams);
  }
  const v = new Float64Array(HASHED_DIMENSIONS);
  for (const [feature, tf] of counts) {
    const h = fnv1a(feature);
    v[h % HASHED_DIMENSIONS] += (h & 0x80000000 ? -1 : 1) * (1 + Math.log(1 + tf));
  }
  return { vector: normalize(Array.from(v)), tokens: words.length };
}

export function normalize(v: number[]): number[] {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return n ? v.map((x) => x / n) : v;
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
