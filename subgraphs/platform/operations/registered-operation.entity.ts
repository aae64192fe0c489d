import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { ArrayType, type Opt } from '@mikro-orm/core';
import { newId } from '../../../lib/ids.js';
import { TenantScoped } from '../../../lib/tenant-entity.js';
import { AppEntity } from '../apps/app.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { OPERATION_TYPES, type OperationType } from './operation-manifest.rules.js';

/**
 * A trusted operation of an app: the document its clients may send by id (the hash their build tool
 * computed). `platform` duplicates app.platform so the platform filter needs no join.
 */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'registered_operations' })
@Unique({ properties: ['app', 'operationId'] })
export class RegisteredOperationEntity {
  @PrimaryKey({ length: 32 })
  id: string & Opt = newId('rop');

  @ManyToOne(() => AppEntity)
  app!: AppEntity;

  @Index()
  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  /** the id clients send: extensions.persistedQuery.sha256Hash or documentId */
  @Property({ length: 140 })
  operationId!: string;

  @Property({ length: 200, nullable: true })
  name?: string | null;

  @Enum({ items: () => OPERATION_TYPES })
  type!: OperationType;

  @Property({ type: 'text' })
  body!: string;

  @Property()
  createdAt: Date & Opt = new Date();
}

/** An app's "registered operations only" setting: for every key of the app, or for the keys listed. */
@TenantScoped({ platformId: 'platform' })
@Entity({ tableName: 'registered_operation_policies' })
export class RegisteredOperationPolicyEntity {
  @ManyToOne(() => AppEntity, { primary: true })
  app!: AppEntity;

  @Index()
  @ManyToOne(() => PlatformEntity)
  platform!: PlatformEntity;

  @Property()
  appOnly: boolean & Opt = false;

  @Property({ type: ArrayType })
  keyIds: string[] & Opt = [];

  @Property()
  updatedAt: Date & Opt = new Date();
}
