// API shapes of an app's registry of trusted operations. OperationRegistry is internal to the
// gateway (@inaccessible).
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import type { RegisteredOperationEntity } from './registered-operation.entity.js';

@ObjectType({ description: "A trusted operation of an app: clients send its id (extensions.persistedQuery.sha256Hash or documentId) instead of the document" })
export class RegisteredOperation {
  @Field(() => ID, { description: 'the hash the client build tool computed, as sent by clients' }) id!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field({ description: 'query, mutation or subscription' }) type!: string;
  @Field() body!: string;
  @Field() createdAt!: Date;
}

export const toRegisteredOperation = (e: RegisteredOperationEntity): RegisteredOperation => ({ id: e.operationId, name: e.name ?? null, type: e.type, body: e.body, createdAt: e.createdAt });

@ObjectType({ description: 'The outcome of a manifest upload: ids already registered are kept as they were' })
export class OperationManifestUpload {
  @Field(() => Int) added!: number;
  @Field(() => Int) unchanged!: number;
  @Field(() => Int, { description: 'operations the app has now' }) total!: number;
}

@ObjectType({ description: '"Registered operations only": requests with a document, or an id not registered, are refused' })
export class RegisteredOperationsSetting {
  @Field({ description: 'for every key of the app' }) appOnly!: boolean;
  @Field(() => [ID], { description: 'for these keys of the app' }) keyIds!: string[];
}

@Directive('@inaccessible')
@ObjectType({ description: 'Internal: one registered document, by the id clients send' })
export class RegisteredDocument {
  @Field(() => ID) id!: string;
  @Field() body!: string;
}

@Directive('@inaccessible')
@ObjectType({ description: "Internal: what the gateway needs to serve an app's registered operations" })
export class OperationRegistry {
  @Field() appOnly!: boolean;
  @Field(() => [ID]) keyIds!: string[];
  @Field(() => [RegisteredDocument]) operations!: RegisteredDocument[];
}
