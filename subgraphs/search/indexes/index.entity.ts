// A search index of one app's data partition. Documents and tasks (later issues) reference it by
// `id` (stable, never reused); `uid` is the client-chosen name used in paths.
import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt } from '@mikro-orm/core';
import { AppScopedEntity } from '../../../lib/tenant-entity.js';
import { newId } from '../../../lib/ids.js';
import { defaultSettings, type IndexSettingsData } from './index-settings.rules.js';
import type { SuggestionSettingsData } from './suggestion-settings.rules.js';

@Entity({ tableName: 'indexes' })
// The unique index also serves lookups by uid and listing in uid order within a partition.
@Unique({ properties: ['appId', 'environment', 'uid'] })
export class IndexEntity extends AppScopedEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('idx');

  /** Collation "C": uniqueness and ordering are byte-wise, as Meilisearch compares uids. */
  @Property({ length: 400, collation: 'C' })
  uid!: string;

  @Property({ length: 512, nullable: true })
  primaryKey?: string;

  @Property({ type: 'json' })
  settings: IndexSettingsData & Opt = defaultSettings();

  /** Maintained by the indexing engine in one conditional statement per batch (never read-modify-write). */
  @Property({ type: 'integer', default: 0 })
  numberOfDocuments: number & Opt = 0;

  @Property({ type: 'boolean', default: false })
  isIndexing: boolean & Opt = false;

  /** null until set: the defaults of suggestion-settings.rules.ts apply */
  @Property({ type: 'json', nullable: true })
  suggestionSettings?: SuggestionSettingsData;

  /**
   * The last task whose effects are committed for this index: the version an in-memory engine
   * must have reached to answer for it (engines catch up on documents with a newer task_id).
   */
  @Property({ type: new BigIntType('number'), default: 0 })
  appliedTaskId: number & Opt = 0;

  /** Deletion tombstones up to this task were purged: an engine older than that reloads fully. */
  @Property({ type: new BigIntType('number'), default: 0 })
  purgedThroughTaskId: number & Opt = 0;

  @Property({ type: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
