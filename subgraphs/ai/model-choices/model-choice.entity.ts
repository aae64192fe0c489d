// A tenant's pick of the model that answers one text task (docs/ai.md, Model choices): `builtin` or
// the name of a server the operator configured (operator-models/server-registry.ts), never a URL.
// No row: the operator's default for the task.
import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';

@Entity({ tableName: 'model_choices' })
@Unique({ properties: ['appId', 'environment', 'task'] })
export class ModelChoiceEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('mch');

  /** embeddings | moderation | summaries | translation */
  @Property({ length: 32 })
  task!: string;

  /** `builtin` or an operator server's name */
  @Property({ length: 64 })
  choice!: string;

  @Property({ type: 'timestamptz' })
  updatedAt: Date & Opt = new Date();
}
