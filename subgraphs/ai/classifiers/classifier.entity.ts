// A custom classifier of an app partition: its labels and its current model (JSON, replaced in one
// UPDATE when a training finishes), and the trainings that produced or will produce models.
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';
import type { SoftmaxModel } from '../models/softmax.model.js';

export const CLASSIFIER_STATUSES = ['untrained', 'training', 'trained', 'failed'] as const;
export type ClassifierStatus = (typeof CLASSIFIER_STATUSES)[number];
export const TRAINING_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type TrainingStatus = (typeof TRAINING_STATUSES)[number];

export interface TrainingResult {
  accuracy: number | null;
  trainExamples: number;
  heldOutExamples: number;
  vocabulary: number;
  durationMs: number;
  /** the model version the training produced */
  modelVersion: number;
}

@Entity({ tableName: 'classifiers' })
@Index({ properties: ['appId', 'environment', 'createdAt'] })
export class ClassifierEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('clf');

  @Property({ length: 200 })
  name!: string;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Property({ type: 'json' })
  labels!: string[];

  /** untrained until a first training succeeds; training while one runs */
  @Enum({ items: () => CLASSIFIER_STATUSES, default: 'untrained' })
  status: ClassifierStatus & Opt = 'untrained';

  /** increases with each model; 0 without one (the classify cache compares it) */
  @Property({ type: 'integer' })
  modelVersion: number & Opt = 0;

  @Property({ type: 'json', nullable: true, lazy: true })
  model?: SoftmaxModel | null;

  @Property({ type: 'double', nullable: true })
  accuracy?: number | null;

  @Property({ length: 32, nullable: true })
  trainingId?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  trainedAt?: Date | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

@Entity({ tableName: 'classifier_trainings' })
export class ClassifierTrainingEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('ctr');

  @Index()
  @Property({ length: 32 })
  classifierId!: string;

  @Enum({ items: () => TRAINING_STATUSES, default: 'queued' })
  status: TrainingStatus & Opt = 'queued';

  @Property({ type: 'json', lazy: true })
  examples!: { text: string; label: string }[];

  @Property({ type: 'integer' })
  exampleCount!: number;

  @Property({ type: 'json', nullable: true })
  result?: TrainingResult | null;

  @Property({ type: 'text', nullable: true })
  error?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;
}
