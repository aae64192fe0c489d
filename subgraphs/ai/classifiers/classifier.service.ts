// Custom classifiers (ai.md, Classifiers): created with labels, trained on examples by a job of the
// kernel queue (classifier.job.ts; the call answers a queued training at once), classified with the
// current model (per-label probabilities). Retraining replaces the model in one UPDATE.
import { allInOrder } from '../../../lib/in-order.js';
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { enqueueJob } from '../../../lib/jobs/index.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { AiContext } from '../context.js';
import { AI_READ, AI_WRITE, admitTextCall, planLimits } from '../limits/limits.service.js';
import { round } from '../models/sentiment.js';
import { ClassifierEntity, ClassifierTrainingEntity } from './classifier.entity.js';
import { CLASSIFIER_TRAIN_JOB } from './classifier.job.js';
import type { ClassificationResult, Classifier, ClassifierTraining, CreateClassifierInput, TrainClassifierInput } from './classifier.types.js';
import { predict } from '../models/softmax.model.js';

export const MAX_LABELS = 100;
export const MAX_EXAMPLES = 10_000;
export const MODEL_NAME = 'softmax-regression';

export async function createClassifier(ctx: AiContext, input: CreateClassifierInput): Promise<Classifier> {
  await admitTextCall(ctx, [], 'labels', AI_WRITE);
  const name = input.name.trim();
  if (!name || name.length > 200) throw new DomainError('VALIDATION_FAILED', 'name must be 1 to 200 characters', { parameter: 'name' });
  const labels = input.labels.map((l) => l.trim());
  if (labels.length < 2 || labels.length > MAX_LABELS) throw new DomainError('VALIDATION_FAILED', `labels must hold 2 to ${MAX_LABELS} labels`, { parameter: 'labels' });
  labels.forEach((l, i) => {
    if (!l || l.length > 100) throw new DomainError('VALIDATION_FAILED', `labels[${i}] must be 1 to 100 characters`, { parameter: 'labels' });
    if (labels.indexOf(l) !== i) throw new DomainError('VALIDATION_FAILED', `labels[${i}] "${l}" is a duplicate`, { parameter: 'labels' });
  });
  const { appId, environment } = await appPartition(ctx);
  const row = ctx.em.create(ClassifierEntity, { appId, environment, name, description: input.description ?? null, labels });
  await ctx.em.flush();
  return toClassifier(row);
}

export async function getClassifier(ctx: AiContext, id: string): Promise<Classifier> {
  await admitTextCall(ctx, [], 'classifierId', AI_READ);
  return toClassifier(await find(ctx, id));
}

export async function listClassifiers(ctx: AiContext): Promise<Classifier[]> {
  await admitTextCall(ctx, [], 'classifiers', AI_READ);
  return (await ctx.em.find(ClassifierEntity, {}, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 1000 })).map(toClassifier);
}

/** Validates the examples, stores them with a queued training and its job in one transaction. */
export async function trainClassifier(ctx: AiContext, id: string, input: TrainClassifierInput): Promise<ClassifierTraining> {
  await admitTextCall(ctx, [], 'examples', AI_WRITE);
  const clf = await find(ctx, id);
  const ex = input.examples;
  if (ex.length < 2 || ex.length > MAX_EXAMPLES) throw new DomainError('VALIDATION_FAILED', `examples must hold 2 to ${MAX_EXAMPLES} examples`, { parameter: 'examples' });
  const limit = planLimits(ctx).charactersPerRequest;
  ex.forEach((e, i) => {
    if (!e.text.trim()) throw new DomainError('VALIDATION_FAILED', `examples[${i}].text must not be empty`, { parameter: `examples[${i}].text` });
    if (limit !== null && [...e.text].length > limit) throw new DomainError('text_too_long', `examples[${i}].text exceeds the plan's ${limit} characters per text`, { parameter: `examples[${i}].text`, meta: { limit } });
    if (!clf.labels.includes(e.label)) throw new DomainError('VALIDATION_FAILED', `examples[${i}].label "${e.label}" is not a label of this classifier (${clf.labels.join(', ')})`, { parameter: `examples[${i}].label` });
  });
  if (new Set(ex.map((e) => e.label)).size < 2) throw new DomainError('VALIDATION_FAILED', 'examples must cover at least two labels', { parameter: 'examples' });
  const training = ctx.em.create(ClassifierTrainingEntity, {
    id: newId('ctr'),
    appId: clf.appId,
    environment: clf.environment,
    classifierId: clf.id,
    examples: ex.map((e) => ({ text: e.text, label: e.label })),
    exampleCount: ex.length,
  });
  // trainings of one classifier run one at a time, in the order they were accepted (the job key)
  await ctx.em.transactional(async (tx) => {
    tx.persist(training);
    await tx.flush();
    await enqueueJob(tx, 'ai', { kind: CLASSIFIER_TRAIN_JOB, payload: { trainingId: training.id, classifierId: clf.id, appId: clf.appId, environment: clf.environment }, key: `ai.classifier:${clf.id}` });
  });
  return toTraining(training);
}

export async function getTraining(ctx: AiContext, id: string): Promise<ClassifierTraining> {
  await admitTextCall(ctx, [], 'trainingId', AI_READ);
  const t = await ctx.em.findOne(ClassifierTrainingEntity, { id });
  if (!t) throw new DomainError('training_not_found', `Training ${id} does not exist in this tenant`, { parameter: 'trainingId' });
  return toTraining(t);
}

export async function classify(ctx: AiContext, id: string, text: string): Promise<ClassificationResult> {
  // the admission and the classifier's row read at once; errors keep their order: admission, then
  // empty text, then an unknown classifier
  const admitted = admitTextCall(ctx, [text], 'text', AI_READ).then(() => {
    if (!text.trim()) throw new DomainError('VALIDATION_FAILED', 'text must not be empty', { parameter: 'text' });
  });
  const [, clf] = await allInOrder<[void, ClassifierEntity]>([admitted, find(ctx, id)]);
  if (clf.modelVersion === 0) throw new DomainError('classifier_not_trained', `Classifier ${id} has no trained model yet (status ${clf.status}); train it with POST /ai/v1/classifiers/${id}/train`, { parameter: 'classifierId' });
  const cache = ctx.runtime.classifierModels;
  let loaded = cache.get(clf.id, clf.modelVersion);
  if (!loaded) {
    const row = await ctx.em.findOne(ClassifierEntity, { id: clf.id }, { populate: ['model'], refresh: true });
    if (!row?.model) throw new DomainError('classifier_not_found', `Classifier ${id} does not exist in this tenant`, { parameter: 'classifierId' });
    loaded = cache.put(row.id, row.modelVersion, row.model);
  }
  const predictions = predict(loaded.model, text, loaded.index).map((p) => ({ label: p.label, confidence: round(p.confidence, 4) }));
  return { id: newId('cls'), predictions, modelVersion: loaded.version, model: loaded.model.embedding ? `${MODEL_NAME}+${loaded.model.embedding}` : MODEL_NAME };
}

async function find(ctx: AiContext, id: string): Promise<ClassifierEntity> {
  const row = await ctx.em.findOne(ClassifierEntity, { id });
  if (!row) throw new DomainError('classifier_not_found', `Classifier ${id} does not exist in this tenant`, { parameter: 'classifierId' });
  return row;
}

export const toClassifier = (c: ClassifierEntity): Classifier => ({
  id: c.id,
  name: c.name,
  description: c.description ?? null,
  labels: c.labels,
  status: c.status,
  modelVersion: c.modelVersion,
  accuracy: c.accuracy ?? null,
  trainedAt: c.trainedAt ?? null,
  createdAt: c.createdAt,
});

export const toTraining = (t: ClassifierTrainingEntity): ClassifierTraining => ({
  id: t.id,
  classifierId: t.classifierId,
  status: t.status,
  examples: t.exampleCount,
  accuracy: t.result?.accuracy ?? null,
  trainExamples: t.result?.trainExamples ?? null,
  heldOutExamples: t.result?.heldOutExamples ?? null,
  modelVersion: t.result?.modelVersion ?? null,
  error: t.error ?? null,
  createdAt: t.createdAt,
  completedAt: t.completedAt ?? null,
});
