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

@ObjectType('IndexStats', { description: "Meilisearch's index stats" })
export class IndexStats {
  @Field() indexUid!: string;
  @Field(() => Int) numberOfDocuments!: number;
  @Field({ description: 'a task of the index is being processed' }) isIndexing!: boolean;
  @Field(() => GraphQLJSONObject, { description: 'top-level field → how many documents hold it (fields in byte order)' }) fieldDistribution!: Record<string, number>;
}

@ObjectType('SearchStats', { description: "Meilisearch's GET /stats, for the calling app's partition" })
export class SearchStats {
  @Field(() => Date, { nullable: true, description: 'when a task of the partition last finished' }) lastUpdate!: Date | null;
  @Field(() => [IndexStats], { description: 'every index, by uid' }) indexes!: IndexStats[];
}
