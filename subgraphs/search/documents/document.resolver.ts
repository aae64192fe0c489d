import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver, Directive } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import type { SearchContext } from '../context.js';
import { Task, toTask } from '../tasks/task.type.js';
import * as documents from './document.service.js';
import { IndexStats, SearchDocument, SearchDocumentPage, SearchStats } from './document.type.js';

@Resolver(() => SearchDocument)
export class DocumentResolver {
  @Authorized('search:read')
  @Query(() => SearchDocument, { description: 'One document by id; document_not_found otherwise' })
  async indexDocument(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('id', () => ID) id: string,
    @Arg('fields', () => [String], { nullable: true }) fields?: string[],
  ): Promise<SearchDocument> {
    return { id, fields: await documents.getDocument(ctx, indexUid, id, fields) };
  }

  @Authorized('search:read')
  @Query(() => IndexStats, { description: 'How many documents the index holds, whether it is indexing, and how many documents hold each top-level field' })
  async indexStats(@Ctx() ctx: SearchContext, @Arg('indexUid', () => String) indexUid: string): Promise<IndexStats> {
    return documents.getIndexStats(ctx, indexUid);
  }

  @Authorized('search:read')
  @Query(() => SearchStats, { description: "Every index's stats, and when a task last finished" })
  async searchStats(@Ctx() ctx: SearchContext): Promise<SearchStats> {
    return documents.getAllStats(ctx);
  }

  @Authorized('search:read')
  @Directive('@listSize(slicingArguments: ["limit"], sizedFields: ["results"], requireOneSlicingArgument: false)')
  @Query(() => SearchDocumentPage, { description: `Documents in insertion order; limit at most ${documents.MAX_LIST_LIMIT}` })
  async indexDocuments(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('offset', () => Int, { nullable: true }) offset?: number,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
    @Arg('fields', () => [String], { nullable: true }) fields?: string[],
    @Arg('filter', () => GraphQLJSON, { nullable: true, description: 'filter expression (attributes must be filterable)' }) filter?: unknown,
    @Arg('ids', () => [String], { nullable: true, description: `only these documents (at most ${documents.MAX_LIST_LIMIT} ids), in listing order; with a filter, those it matches` }) ids?: string[],
  ): Promise<SearchDocumentPage> {
    return documents.listDocuments(ctx, indexUid, { offset, limit, fields, filter, ids });
  }

  @Authorized('search:write')
  @Mutation(() => Task, { description: 'Add or replace documents by primary key (a document_addition_or_update task)' })
  async addIndexDocuments(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('documents', () => [GraphQLJSON], { nullable: 'itemsAndList', description: 'JSON objects (checked by the service, which names the offending position)' }) docs: unknown[] | null,
    @Arg('primaryKey', () => String, { nullable: true, description: 'when the index has none yet; inferred from the first document otherwise' }) primaryKey?: string,
  ): Promise<Task> {
    return toTask(await documents.addDocuments(ctx, indexUid, docs, primaryKey));
  }

  @Authorized('search:write')
  @Mutation(() => Task, {
    description: "Add documents, or merge their fields into the stored ones of the same id (top-level fields replace the stored ones; a document_addition_or_update task, Meilisearch's PUT)",
  })
  async updateIndexDocuments(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('documents', () => [GraphQLJSON], { nullable: 'itemsAndList', description: 'JSON objects, each with the primary key (checked by the service, which names the offending position)' }) docs: unknown[] | null,
    @Arg('primaryKey', () => String, { nullable: true, description: 'when the index has none yet; inferred from the first document otherwise' }) primaryKey?: string,
  ): Promise<Task> {
    return toTask(await documents.addDocuments(ctx, indexUid, docs, primaryKey, 'update'));
  }

  @Authorized('search:write')
  @Mutation(() => Task, { description: 'Delete one document by id (a document_deletion task); document_not_found when the index does not hold it' })
  async deleteIndexDocument(@Ctx() ctx: SearchContext, @Arg('indexUid', () => String) indexUid: string, @Arg('id', () => ID) id: string): Promise<Task> {
    return toTask(await documents.deleteDocument(ctx, indexUid, id));
  }

  @Authorized('search:write')
  @Mutation(() => Task, { description: 'Delete documents by id (a document_deletion task)' })
  async deleteIndexDocuments(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('documentIds', () => [GraphQLJSON], { nullable: true }) documentIds: unknown[] | null,
  ): Promise<Task> {
    return toTask(await documents.deleteDocuments(ctx, indexUid, documentIds));
  }

  @Authorized('search:write')
  @Mutation(() => Task, { description: 'Delete the documents a filter matches (a document_deletion_by_filter task)' })
  async deleteIndexDocumentsByFilter(
    @Ctx() ctx: SearchContext,
    @Arg('indexUid', () => String) indexUid: string,
    @Arg('filter', () => GraphQLJSON, { nullable: true }) filter: unknown,
  ): Promise<Task> {
    return toTask(await documents.deleteByFilter(ctx, indexUid, filter));
  }
}
