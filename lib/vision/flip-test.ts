// Flip testing (Zhou, Wang & Krähenbühl 2019, "Objects as Points", §5: CenterNet's own test-time
// augmentation): the detector runs on the image and on its mirror image, and a thing's score per
// class is the mean of the two passes. CenterNet scores every class on its own (one sigmoid
// heat-map per class), so on an animal seen half from behind one pass can rank a wrong class first
// by a hair (darknet's person.jpg: the horse is sheep 0.30, horse 0.28 on the image; horse 0.44 and
// no sheep in the top 100 on the mirror). A class that only one pass sees keeps half its score, so
// one-pass flukes (a "bed" in a painting) fall too. The model outputs its 100 best (box, class)
// rows per pass, not heat-maps, so the two passes are matched per class by box overlap. Pure.
import { iou, type Scored } from './nms.js';

/** Boxes of one class in the two passes are the same candidate from this overlap. */
export const FLIP_MATCH_IOU = 0.5;

/** A box of the mirrored pass back in the image's coordinates (width: the image's, same unit). */
export function unmirror<T extends Scored>(item: T, width: number): T {
  return { ...item, bbox: { ...item.bbox, x: width - item.bbox.x - item.bbox.width } };
}

/**
 * Each candidate of either pass (the mirrored one already unmirrored) matched with the best
 * overlapping candidate of the same class in the other; score = mean of the two (0 for a pass that
 * has none), box = the score-weighted mean of the two. Every candidate is used once.
 */
export function mergeFlipPasses<T extends Scored>(plain: readonly T[], mirrored: readonly T[]): T[] {
  const used = new Set<T>();
  const out: T[] = [];
  for (const a of [...plain].sort((x, y) => y.confidence - x.confidence)) {
    let best: T | undefined;
    let bestIou = FLIP_MATCH_IOU;
    for (const b of mirrored) {
      if (used.has(b) || b.label !== a.label) continue;
      const o = iou(a.bbox, b.bbox);
      if (o >= bestIou) [best, bestIou] = [b, o];
    }
    if (best) used.add(best);
    out.push(average(a, best));
  }
  for (const b of mirrored) if (!used.has(b)) out.push(average(b, undefined));
  return out.sort((x, y) => y.confidence - x.confidence);
}

function average<T extends Scored>(a: T, b: T | undefined): T {
  if (!b) return { ...a, confidence: a.confidence / 2 };
  const wa = a.confidence / (a.confidence + b.confidence || 1);
  const mix = (p: number, q: number) => wa * p + (1 - wa) * q;
  return {
    ...a,
    confidence: (a.confidence + b.confidence) / 2,
    bbox: { x: mix(a.bbox.x, b.bbox.x), y: mix(a.bbox.y, b.bbox.y), width: mix(a.bbox.width, b.bbox.width), height: mix(a.bbox.height, b.bbox.height) },
  };
}
