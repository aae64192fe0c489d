// What an agent knows: context entries of one agent in an app partition, each with its embedding
// (embeddings/embedding.service.ts) so a query can rank them (agent-context.service.ts).
import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';

@Entity({ tableName: 'agent_contexts' })
@Unique({ properties: ['appId', 'environment', 'agentId', 'uniqueId'] })
@Index({ properties: ['appId', 'environment', 'agentId', 'reference'] })
export class AgentContextEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('actx');

  @Property({ length: 255 })
  agentId!: string;

  @Property({ type: 'uuid' })
  uniqueId!: string;

  @Property({ type: 'text' })
  content!: string;

  @Property({ length: 100, nullable: true })
  type?: string | null;

  @Property({ length: 255, nullable: true })
  reference?: string | null;

  @Property({ length: 255, nullable: true })
  sourceId?: string | null;

  @Property({ length: 255, nullable: true })
  sourceAlias?: string | null;

  /** the content's vector (L2-normalised) and the model that made it */
  @Property({ type: 'json' })
  embedding!: number[];

  @Property({ length: 100 })
  embeddingModel!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz' })
  updatedAt: Date & Opt = new Date();
}
