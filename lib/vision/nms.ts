// Greedy non-maximum suppression: keep the best box, drop every box of the same label that
// overlaps it by IoU ≥ threshold, repeat; then across classes, one box one label: a box that
// overlaps a surer box of any label by SAME_THING_IOU is the same thing scored as another class
// (a car also scored as a truck, a horse as a sheep) and is dropped. Pure; boxes in any consistent unit.
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Scored {
  label: string;
  confidence: number;
  bbox: Box;
}

/** Intersection over union of two boxes (0 when either has no area). */
export function iou(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

/** Per-label greedy NMS; the result is sorted by confidence, best first. */
export function nonMaxSuppression<T extends Scored>(items: T[], iouThreshold: number): T[] {
  const sorted = [...items].sort((a, b) => b.confidence - a.confidence);
  const kept: T[] = [];
  for (const c of sorted) if (!kept.some((k) => k.label === c.label && iou(k.bbox, c.bbox) >= iouThreshold)) kept.push(c);
  return kept;
}

/**
 * Two classes on one thing (CenterNet scores each class on its own): a box overlapping a surer box
 * of any class by this IoU is dropped. High enough that a rider and a horse, a person and a bicycle,
 * stay two objects.
 */
export const SAME_THING_IOU = 0.7;

/** One label per thing (see SAME_THING_IOU), surest first. */
export function suppressAcrossClasses<T extends { confidence: number; bbox: Box }>(items: readonly T[], iouThreshold = SAME_THING_IOU): T[] {
  const kept: T[] = [];
  for (const o of [...items].sort((a, b) => b.confidence - a.confidence)) if (kept.every((k) => iou(k.bbox, o.bbox) < iouThreshold)) kept.push(o);
  return kept;
}
