import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType('SearchDocument', { description: 'A document of an index: its id (the primary key value as a string) and its fields' })
export class SearchDocument {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLJSONObject, { description: 'the document as stored (or the requested fields)' }) fields!: Record<string, unknown>;
}

@ObjectType('SearchDocumentPage')
export class SearchDocumentPage {
  @Field(() => [SearchDocument]) results!: SearchDocument[];
  @Field(() => Int) offset!: number;
  @Field(() => Int) limit!: number;
  @Field(() => Int, { description: 'documents matching (all, or the filter)' }) total!: number;
}
