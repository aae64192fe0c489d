// Combining the two OCR readings of one page (pure). Tesseract reads Latin text best (spacing,
// accurate word boxes) but mangles rotated lines; PaddleOCR (PP-OCRv4) finds every line, rotated
// ones included, but its Chinese+English recogniser drops spaces in some English lines. So, per
// Paddle line: where Tesseract found nothing, the Paddle line is added; where both read the same
// letters (ignoring spaces and case, similarity ≥ 0.9), Tesseract's lines are kept (they have the
// spaces); where they disagree (a rotated line Tesseract split and misread), the more confident
// reading wins (Tesseract's mean word confidence against Paddle's mean character confidence).
export interface Quad {
  /** four corners, clockwise from top-left, in pixels */
  points: [number, number][];
}

export interface OcrLine {
  text: string;
  /** 0–1 */
  confidence: number;
  box: { x: number; y: number; width: number; height: number };
  /** slope in degrees, counter-clockwise positive */
  angle: number;
  source: 'tesseract' | 'paddle';
}

export interface TesseractWord {
  block: number;
  par: number;
  line: number;
  left: number;
  top: number;
  width: number;
  height: number;
  conf: number;
  text: string;
}

/** Tesseract's TSV (level 5 rows) grouped into lines. */
export function tesseractLines(tsv: string): OcrLine[] {
  const words: TesseractWord[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5' || !c[11].trim()) continue;
    words.push({ block: +c[2], par: +c[3], line: +c[4], left: +c[6], top: +c[7], width: +c[8], height: +c[9], conf: +c[10], text: c[11].trim() });
  }
  const groups = new Map<string, TesseractWord[]>();
  for (const w of words) {
    const k = `${w.block}.${w.par}.${w.line}`;
    groups.set(k, [...(groups.get(k) ?? []), w]);
  }
  return [...groups.values()].map((ws) => {
    const x = Math.min(...ws.map((w) => w.left));
    const y = Math.min(...ws.map((w) => w.top));
    const right = Math.max(...ws.map((w) => w.left + w.width));
    const bottom = Math.max(...ws.map((w) => w.top + w.height));
    const confidence = ws.reduce((s, w) => s + Math.max(0, w.conf), 0) / ws.length / 100;
    return { text: ws.map((w) => w.text).join(' '), confidence: round(confidence), box: { x, y, width: right - x, height: bottom - y }, angle: 0, source: 'tesseract' as const };
  });
}

/** A Paddle line from its quad. */
export function paddleLine(text: string, mean: number, quad: [number, number][]): OcrLine {
  const xs = quad.map((p) => p[0]);
  const ys = quad.map((p) => p[1]);
  const x = Math.max(0, Math.floor(Math.min(...xs)));
  const y = Math.max(0, Math.floor(Math.min(...ys)));
  const [tl, tr] = quad;
  const angle = (Math.atan2(tl[1] - tr[1], tr[0] - tl[0]) * 180) / Math.PI;
  return { text, confidence: round(mean), box: { x, y, width: Math.ceil(Math.max(...xs)) - x, height: Math.ceil(Math.max(...ys)) - y }, angle: Math.round(angle * 10) / 10, source: 'paddle' };
}

/** Share of box a's area that lies inside box b. */
function coveredBy(a: OcrLine['box'], b: OcrLine['box']): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? (w * h) / (a.width * a.height || 1) : 0;
}

export const SAME_READING = 0.9;
/** Tesseract's mean word confidence from which its reading of a level line stands without Paddle's */
export const CONFIDENT = 0.85;
/** a line sloped more than this (degrees) is read by Paddle whatever Tesseract says */
export const LEVEL = 2;

/**
 * Whether Paddle's recogniser must read a line its detector found (quad in pixels): yes unless the
 * line is level and Tesseract's lines inside it span at least 80 % of its width, each with a mean
 * word confidence of CONFIDENT or more. A line that passes would keep Tesseract's reading in
 * mergeReadings anyway (Paddle would have to be more confident still), so skipping it saves the
 * slow stage without changing the answer.
 */
export function paddleNeeded(quad: [number, number][], tess: OcrLine[]): boolean {
  const p = paddleLine('', 1, quad);
  if (Math.abs(p.angle) > LEVEL) return true;
  const covered = tess.filter((t) => coveredBy(t.box, p.box) >= 0.3);
  if (!covered.length || covered.some((t) => t.confidence < CONFIDENT)) return true;
  const left = Math.max(p.box.x, Math.min(...covered.map((t) => t.box.x)));
  const right = Math.min(p.box.x + p.box.width, Math.max(...covered.map((t) => t.box.x + t.box.width)));
  return right - left < 0.8 * p.box.width;
}

const letters = (s: string) => s.replace(/\s+/g, '').toLowerCase();

/** 1 − Levenshtein distance / longer length. */
export function similarity(a: string, b: string): number {
  if (!a.length && !b.length) return 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return 1 - prev[b.length] / Math.max(a.length, b.length);
}

export function mergeReadings(tess: OcrLine[], paddle: OcrLine[]): OcrLine[] {
  const dropped = new Set<OcrLine>();
  const added: OcrLine[] = [];
  for (const p of paddle) {
    if (!p.text.trim()) continue;
    const covered = tess.filter((t) => coveredBy(t.box, p.box) >= 0.3).sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
    if (!covered.length) {
      added.push(p);
      continue;
    }
    if (similarity(letters(covered.map((t) => t.text).join('')), letters(p.text)) >= SAME_READING) continue;
    const tessConfidence = covered.reduce((s, t) => s + t.confidence, 0) / covered.length;
    if (p.confidence > tessConfidence) {
      for (const t of covered) dropped.add(t);
      added.push(p);
    }
  }
  return [...tess.filter((t) => !dropped.has(t)), ...added].sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
