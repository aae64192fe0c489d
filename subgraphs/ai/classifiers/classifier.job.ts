// The job that trains a classifier (kernel queue, lib/jobs; one at a time per classifier, in
// acceptance order): measure accuracy on a held-out split with a model trained on the rest, train
// the served model on every example, then in one transaction replace the classifier's model (one
// UPDATE, so a classify call sees the old model or the new one, never a mix), record the result,
// queue the `classifier.trained` webhook deliveries and complete the job. After commit the event
// goes to the app's AI topic (GraphQL subscription aiEvents). A training whose job dies is failed
// and announced too.
import type { EntityManager } from '@mikro-orm/postgresql';
import { publishAfterCommit } from '../../../lib/events.js';
import type { JobKind } from '../../../lib/jobs/index.js';
import type { WorkerDeps } from '../../../lib/subgraph.js';
import { scopeToApp } from '../../../lib/tenant-entity.js';
import type { Environment } from '../../../lib/tenant.js';
import { aiEventsTopic, type AiEventPayload } from '../event-types.js';
import type { AiRuntime } from '../runtime.js';
import { emitAiEvent } from '../webhooks/ai-webhook.js';
import { ClassifierEntity, ClassifierTrainingEntity, type TrainingResult } from './classifier.entity.js';
import { heldOutSplit, predict, train } from '../models/softmax.model.js';

export const CLASSIFIER_TRAIN_JOB = 'ai.classifier.train';

interface TrainPayload {
  trainingId: string;
  classifierId: string;
  appId: string;
  environment: Environment;
}

type Deps = WorkerDeps & { runtime: AiRuntime };

export function classifierTrainJobKind(deps: Deps): JobKind<TrainPayload> {
  const emFor = (p: TrainPayload): EntityManager => {
    const em = deps.orm.em.fork() as EntityManager;
    scopeToApp(em, { kind: 'service', requestId: `training:${p.trainingId}`, scopes: [], appId: p.appId, environment: p.environment });
    return em;
  };
  const announce = async (p: TrainPayload, status: string, r: TrainingResult | null) => {
    const payload: AiEventPayload = {
      event: 'classifier.trained',
      occurredAt: new Date().toISOString(),
      status,
      classifierId: p.classifierId,
      trainingId: p.trainingId,
      modelVersion: r?.modelVersion ?? null,
      accuracy: r?.accuracy ?? null,
    };
    await publishAfterCommit(deps, aiEventsTopic(p.appId, p.environment), payload, payload.event);
  };
  return {
    kind: CLASSIFIER_TRAIN_JOB,
    maxAttempts: 3,
    leaseMs: 120_000,
    backoff: { baseMs: 1000, maxMs: 10_000 },
    async handle({ job, complete }) {
      const p = job.payload;
      const em = emFor(p);
      const training = await em.findOne(ClassifierTrainingEntity, { id: p.trainingId }, { populate: ['examples'] });
      const clf = await em.findOne(ClassifierEntity, { id: p.classifierId });
      if (!training || !clf || training.status === 'succeeded') return;
      training.status = 'running';
      if (clf.modelVersion === 0) clf.status = 'training';
      await em.flush();

      const started = performance.now();
      const { train: trainSet, test } = heldOutSplit(training.examples);
      let accuracy: number | null = null;
      if (test.length) {
        const probe = await train(trainSet, clf.labels);
        const right = test.filter((e) => predict(probe, e.text)[0].label === e.label).length;
        accuracy = Math.round((right / test.length) * 10_000) / 10_000;
      }
      const model = await train(training.examples, clf.labels);

      let result: TrainingResult | null = null;
      await em.transactional(async (tx) => {
        // one statement: the model and its version change together
        const rows = await tx.getConnection().execute<{ model_version: number }[]>(
          `update "ai"."classifiers" set "model" = ?, "model_version" = "model_version" + 1, "accuracy" = ?, "training_id" = ?, "trained_at" = now(), "status" = 'trained'
           where "id" = ? and "app_id" = ? and "environment" = ? returning "model_version"`,
          [JSON.stringify(model), accuracy, training.id, clf.id, p.appId, p.environment],
          'all',
          tx.getTransactionContext(),
        );
        result = { accuracy, trainExamples: test.length ? trainSet.length : training.examples.length, heldOutExamples: test.length, vocabulary: model.vocabulary.length, durationMs: Math.round(performance.now() - started), modelVersion: rows[0].model_version };
        await tx.nativeUpdate(ClassifierTrainingEntity, { id: training.id }, { status: 'succeeded', result, completedAt: new Date() });
        await emitAiEvent(deps.runtime, tx, p, 'classifier.trained', { classifier_id: clf.id, training_id: training.id, status: 'succeeded', model_version: rows[0].model_version, accuracy, train_examples: result.trainExamples, held_out_examples: result.heldOutExamples });
        await complete(tx);
      });
      await announce(p, 'succeeded', result);
    },
    async onDead(job, error, tx) {
      const p = job.payload;
      const em = tx as EntityManager;
      await em.nativeUpdate(ClassifierTrainingEntity, { id: p.trainingId }, { status: 'failed', error, completedAt: new Date() });
      await em.nativeUpdate(ClassifierEntity, { id: p.classifierId, modelVersion: 0 }, { status: 'failed' });
      await emitAiEvent(deps.runtime, tx, p, 'classifier.trained', { classifier_id: p.classifierId, training_id: p.trainingId, status: 'failed', error });
      await announce(p, 'failed', null);
    },
  };
}
