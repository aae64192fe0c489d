// One figure of the AI quality bench: what was measured, its value, the target it is held to (or
// '' when the figure is shown for comparison only) and whether it meets it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface Row {
  figure: string;
  value: string;
  target: string;
  pass: boolean | null;
}

const dir = resolve(import.meta.dirname, '..', '..', 'test', 'ai-quality');

/** A labelled set under test/ai-quality/ (its `items`, and `split` when it has one). */
export function loadSet<T>(name: string): { items: T[]; source: string } {
  return JSON.parse(readFileSync(resolve(dir, name), 'utf8')) as { items: T[]; source: string };
}

export const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(1)}%`;

/** A row held to a minimum fraction (`min` in 0..1). */
export function atLeast(figure: string, n: number, d: number, min: number): Row {
  return { figure, value: `${pct(n, d)} (${n}/${d})`, target: `≥ ${(100 * min).toFixed(0)}%`, pass: n / Math.max(1, d) >= min };
}

/** A row shown for comparison, held to no target. */
export function info(figure: string, n: number, d: number): Row {
  return { figure, value: `${pct(n, d)} (${n}/${d})`, target: '', pass: null };
}
