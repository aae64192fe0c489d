// Custom prompts of an app partition, the prompts rendered from them (or from library templates,
// prompt.library.ts) and their executions against the configured language model.
import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';

@Entity({ tableName: 'prompts' })
@Index({ properties: ['appId', 'environment', 'createdAt'] })
export class PromptEntity extends AppScopedEntity {
  @PrimaryKey({ type: 'uuid' })
  uniqueId: string & Opt = randomUUID();

  @Property({ length: 200 })
  name!: string;

  @Property({ type: 'text' })
  content!: string;

  @Property({ type: 'text', nullable: true })
  description?: string | null;

  /** the library template it was cloned from, if any */
  @Property({ type: 'uuid', nullable: true })
  templateUniqueId?: string | null;

  @Property({ length: 255 })
  createdBy!: string;

  /** attributes the API documents do not list, kept as given (lib/extra-attributes.ts) */
  @Property({ type: 'json', default: '{}' })
  extraAttributes: Record<string, unknown> & Opt = {};

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

@Entity({ tableName: 'rendered_prompts' })
@Unique({ properties: ['appId', 'environment', 'number'] })
export class RenderedPromptEntity extends AppScopedEntity {
  /** internal key; the API's id is `number` */
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number & Opt;

  /** the id the API shows, an integer (ai.md, Versioning) counted per app partition (lib/tenant-sequence.ts); the prompt's UUID is prompt_unique_id */
  @Property({ type: 'integer' })
  number!: number;

  @Property({ type: 'uuid' })
  promptUniqueId!: string;

  @Property({ type: 'text' })
  renderedContent!: string;

  @Property({ type: 'json' })
  placeholdersUsed!: string[];

  @Property({ length: 255 })
  userUniqueId!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

@Entity({ tableName: 'prompt_executions' })
export class PromptExecutionEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('pex');

  @Property({ type: 'uuid' })
  promptUniqueId!: string;

  @Property({ type: 'text' })
  renderedContent!: string;

  @Property({ type: 'text' })
  response!: string;

  @Property({ length: 200 })
  model!: string;

  @Property({ type: 'integer' })
  tokensUsed!: number;

  @Property({ type: 'integer' })
  executionTimeMs!: number;

  @Property({ length: 255 })
  userUniqueId!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
