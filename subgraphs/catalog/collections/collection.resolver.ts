import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver, Directive } from 'type-graphql';
import type { CatalogContext } from '../context.js';
import { ProductPage, toProduct } from '../products/product.type.js';
import { CreateCollectionInput, UpdateCollectionInput } from './collection.inputs.js';
import { Collection, CollectionPage, CollectionProductsResult, toCollection } from './collection.type.js';
import * as collections from './collection.service.js';

@Resolver(() => Collection)
export class CollectionResolver {
  @Authorized('products:read')
  @Query(() => Collection, { description: 'A collection of the calling app; COLLECTION_NOT_FOUND otherwise' })
  async collection(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string): Promise<Collection> {
    return toCollection(await collections.getCollection(ctx, id));
  }

  @Authorized('products:read')
  @Directive('@listSize(slicingArguments: ["pageSize"], sizedFields: ["items"], requireOneSlicingArgument: false)')
  @Query(() => CollectionPage, { description: 'Collections, newest first' })
  async collections(
    @Ctx() ctx: CatalogContext,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('pageSize', () => Int, { defaultValue: 20 }) pageSize: number,
    @Arg('type', () => String, { nullable: true }) type?: string | null,
    @Arg('status', () => String, { nullable: true }) status?: string | null,
    @Arg('activeOnly', { defaultValue: false, description: 'only collections live now (status active, inside their window)' }) activeOnly?: boolean,
  ): Promise<CollectionPage> {
    const r = await collections.listCollections(ctx, { page, pageSize, type, status, activeOnly });
    return { items: r.items.map(toCollection), total: r.total, page, pageSize };
  }

  @Authorized('products:read')
  @Directive('@listSize(slicingArguments: ["pageSize"], sizedFields: ["items"], requireOneSlicingArgument: false)')
  @Query(() => ProductPage, { description: "A collection's live products: manual by position, automated by its rules (evaluated now)" })
  async collectionProducts(
    @Ctx() ctx: CatalogContext,
    @Arg('id', () => ID) id: string,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('pageSize', () => Int, { defaultValue: 20 }) pageSize: number,
    @Arg('sort', () => String, { nullable: true, description: 'position (manual only), name, -name, price, -price, created_at, -created_at' }) sort?: string | null,
  ): Promise<ProductPage> {
    const r = await collections.collectionProducts(ctx, id, { page, pageSize, sort });
    return { items: r.items.map(toProduct), total: r.total, page, pageSize };
  }

  @Authorized('products:write')
  @Mutation(() => Collection)
  async createCollection(@Ctx() ctx: CatalogContext, @Arg('input', () => CreateCollectionInput) input: CreateCollectionInput): Promise<Collection> {
    return toCollection(await collections.createCollection(ctx, input));
  }

  @Authorized('products:write')
  @Mutation(() => Collection)
  async updateCollection(
    @Ctx() ctx: CatalogContext,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateCollectionInput) input: UpdateCollectionInput,
  ): Promise<Collection> {
    return toCollection(await collections.updateCollection(ctx, id, input));
  }

  @Authorized('products:write')
  @Mutation(() => Collection)
  async deleteCollection(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string): Promise<Collection> {
    return toCollection(await collections.deleteCollection(ctx, id));
  }

  @Authorized('products:write')
  @Mutation(() => CollectionProductsResult, { description: 'Append products to a manual collection (all or nothing; idempotent)' })
  async addCollectionProducts(
    @Ctx() ctx: CatalogContext,
    @Arg('id', () => ID) id: string,
    @Arg('productIds', () => [ID]) productIds: string[],
  ): Promise<CollectionProductsResult> {
    const r = await collections.addProducts(ctx, id, productIds);
    return Object.assign(new CollectionProductsResult(), { collection: toCollection(r.collection), added: r.added });
  }

  @Authorized('products:write')
  @Mutation(() => Collection, { description: 'Remove a product from a manual collection' })
  async removeCollectionProduct(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string, @Arg('productId', () => ID) productId: string): Promise<Collection> {
    return toCollection(await collections.removeProduct(ctx, id, productId));
  }
}
