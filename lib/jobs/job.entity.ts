// The jobs table, declared once for every subgraph: each subgraph lists JobEntity among its
// entities, so its generated migration creates `<its schema>.jobs` (npm run migration:create) and
// the schema diff keeps agreeing with it. Rows are read and written by lib/jobs' SQL (store.ts).
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt } from '@mikro-orm/core';

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'dead', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

@Entity({ tableName: 'jobs' })
@Index({ properties: ['status', 'runAt'] })
@Index({ properties: ['key', 'status', 'id'] })
@Index({ properties: ['dedupeKey', 'status'] })
@Index({ properties: ['kind', 'status', 'id'] })
export class JobEntity {
  /** acceptance order: per key, ids increase in commit order (enqueue holds a per-key lock until commit) */
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number & Opt;

  @Property({ length: 120 })
  kind!: string;

  /** jobs sharing a key run one at a time, in id order */
  @Property({ length: 300, nullable: true })
  key?: string | null;

  /** at most one queued or running job per dedupe key */
  @Property({ length: 300, nullable: true })
  dedupeKey?: string | null;

  @Property({ type: 'json' })
  payload: Record<string, unknown> & Opt = {};

  @Enum({ items: () => JOB_STATUSES, default: 'queued' })
  status: JobStatus & Opt = 'queued';

  /** claims so far (a claim counts even when its worker dies mid-run) */
  @Property({ type: 'integer', default: 0 })
  attempts: number & Opt = 0;

  /** claims before the job is dead-lettered; null: its kind's setting (else 5) */
  @Property({ type: 'integer', nullable: true })
  maxAttempts?: number | null;

  /** not claimed before this time (delayed jobs, retry backoff) */
  @Property({ type: 'timestamptz' })
  runAt!: Date;

  /** a running job whose lease passed is claimed again (its worker died) */
  @Property({ type: 'timestamptz', nullable: true })
  leaseUntil?: Date | null;

  @Property({ length: 80, nullable: true })
  worker?: string | null;

  @Property({ type: 'json', nullable: true })
  progress?: Record<string, unknown> | null;

  @Property({ type: 'json', nullable: true })
  result?: unknown;

  @Property({ type: 'text', nullable: true })
  lastError?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  startedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  finishedAt?: Date | null;
}
