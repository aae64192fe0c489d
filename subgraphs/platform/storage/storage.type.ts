import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { AccountStorageEntity } from './account-storage.entity.js';

@ObjectType({ description: "The account's object store" })
export class AccountStorage {
  @Field(() => ID) id!: string;
  @Field({ description: 'local (a directory under DATA_DIR/objects) or s3' }) backend!: string;
  @Field({ description: 'where the objects live, e.g. local://objects/acct_…' }) location!: string;
  @Field() createdAt!: Date;
}

export function toStorage(e: AccountStorageEntity, location: string): AccountStorage {
  const s = new AccountStorage();
  s.id = e.id;
  s.backend = e.backend;
  s.location = location;
  s.createdAt = e.createdAt;
  return s;
}

@ObjectType({ description: 'A presigned upload: PUT the raw bytes to uploadUrl before expiresAt, then publish the upload' })
export class UploadGrant {
  @Field(() => ID, { description: 'the upload id (upl_…), passed to logo/publish' }) id!: string;
  @Field() uploadUrl!: string;
  @Field({ description: 'always PUT' }) method!: string;
  @Field() expiresAt!: Date;
  @Field(() => Int) maxBytes!: number;
  @Field({ description: 'object key inside the account store' }) objectKey!: string;
}

@ObjectType({ description: 'An upload stored in the account object store, ready to publish' })
export class UploadedObject {
  @Field(() => ID, { description: 'the upload id' }) id!: string;
  @Field() objectKey!: string;
  @Field({ description: 'always true: the bridge stores the whole body before this is answered' }) complete!: boolean;
  @Field(() => Int, { description: 'bytes stored' }) bytes!: number;
  @Field({ description: 'media type decided from the first bytes' }) contentType!: string;
  @Field({ description: 'hex SHA-256 of the whole object' }) sha256!: string;
}

@ObjectType({ description: 'A published logo file, for the public logo URL: the REST bridge streams it from the object store' })
export class LogoFile {
  @Field() contentType!: string;
  @Field({ description: 'opaque, sealed for the REST bridge that streams the file; names nothing a client can read' }) storageRef!: string;
  @Field(() => Int) bytes!: number;
}
