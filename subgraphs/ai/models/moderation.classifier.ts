// The moderation classifier's weights (models/moderation.ts, signal 3), trained once and then read:
// training 602 texts for 40 epochs took 3–16 s at every text worker's start; the trained model is
// kept as a derived model (lib/derived-model-cache.ts) keyed by a hash of the texts as the
// classifier reads them, the labels, the training options, the source of the feature and training
// code (this file, models/softmax.model.ts, lib/word-vectors.ts and its vocabulary) and the
// installed word vectors' fingerprint. Any change to them trains anew on the next start (once per
// machine); a training set edited by hand never meets stale weights.
import { fileURLToPath } from 'node:url';
import { derivationKey, derivedModel, type Derived } from '../../../lib/derived-model-cache.js';
import { wordVectorsFingerprint, WORD_VECTORS_SOURCES } from '../../../lib/word-vectors.js';
import { SOFTMAX_SOURCE, train, type SoftmaxModel } from './softmax.model.js';

/** Training options of the moderation classifier (part of the key). */
export const MODERATION_TRAINING = { epochs: 40, l2: 1e-4 } as const;

/** The key of the classifier trained on `examples` (already masked as the classifier reads them) with `labels`. */
export function moderationClassifierKey(examples: readonly { text: string; label: string }[], labels: readonly string[]): string {
  return derivationKey([
    JSON.stringify(examples),
    JSON.stringify(labels),
    JSON.stringify(MODERATION_TRAINING),
    wordVectorsFingerprint(),
    ...[fileURLToPath(import.meta.url), SOFTMAX_SOURCE, ...WORD_VECTORS_SOURCES].map((file) => ({ file })),
  ]);
}

/** The classifier for `examples`: read from the derived-model folder, or trained now and written there. */
export function moderationClassifier(examples: readonly { text: string; label: string }[], labels: readonly string[]): Promise<Derived<SoftmaxModel>> {
  return derivedModel('moderation-classifier', moderationClassifierKey(examples, labels), () => train(examples, labels, MODERATION_TRAINING));
}
