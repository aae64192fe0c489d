import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver, Directive } from 'type-graphql';
import { StoredUploadInput } from '../../../lib/stored-upload.js';
import type { CatalogContext } from '../context.js';
import { toProduct } from '../products/product.type.js';
import { processProductFile } from './file-processing.service.js';
import * as search from './visual-search.service.js';
import { ProductFileProcessing, VisualSearchResult, VisualSearchUploadGrant } from './vision.types.js';

/** The outcome in its API shape: the searches, and their hits in one list with the products mapped. */
function view(o: search.VisualSearchOutcome): VisualSearchResult {
  const { groups, ...rest } = o;
  return Object.assign(new VisualSearchResult(), {
    ...rest,
    groups: groups.map((g) => ({ detection: g.detection, total: g.results.length, productIds: g.results.map((h) => h.product.id) })),
    hits: groups.flatMap((g) => g.results.map((h) => ({ ...h, product: toProduct(h.product) }))),
  });
}

@Resolver()
export class ProductVisionResolver {
  @Authorized('products:write')
  @Directive('@cost(weight: 100)')
  @Mutation(() => ProductFileProcessing, { description: 'Process a product file (an image of the product): object_detection finds the objects in it and stores a suggested crop of each' })
  async processProductFile(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('fileId', () => ID, { description: 'a product image id' }) fileId: string,
    @Arg('processingMode', () => String, { nullable: true, description: 'object_detection (required)' }) processingMode: string | null,
  ): Promise<ProductFileProcessing> {
    return Object.assign(new ProductFileProcessing(), await processProductFile(ctx, productId, fileId, processingMode));
  }

  @Authorized('products:read')
  @Directive('@cost(weight: 100)')
  @Directive('@listSize(slicingArguments: ["perPage"], sizedFields: ["groups"], requireOneSlicingArgument: false)')
  @Query(() => VisualSearchResult, { description: "Products whose images look like the photo at imageUrl (fetched through the URL guard); with detection, one search per object when it holds 2 or more" })
  async visualProductSearch(
    @Ctx() ctx: CatalogContext,
    @Arg('imageUrl') imageUrl: string,
    @Arg('useObjectDetection', () => Boolean, { nullable: true, description: 'default true; false: one search with the whole photo, no detection' }) useObjectDetection?: boolean | null,
    @Arg('perPage', () => Int, { nullable: true, description: 'results per search, 1–50 (default 10)' }) perPage?: number | null,
  ): Promise<VisualSearchResult> {
    return view(await search.visualSearchByUrl(ctx, imageUrl, { useObjectDetection, perPage }));
  }

  @Authorized('products:read')
  @Mutation(() => VisualSearchUploadGrant, { description: 'A signed grant to stream one visual-search photo into the store (used by the REST bridge before it reads the body)' })
  async presignVisualProductSearch(@Ctx() ctx: CatalogContext): Promise<VisualSearchUploadGrant> {
    return Object.assign(new VisualSearchUploadGrant(), await search.presignVisualSearch(ctx));
  }

  /** Public: the signed token and the bridge's receipt are the credentials. Called by the REST bridge once the photo is stored. */
  @Directive('@cost(weight: 100)')
  @Directive('@listSize(slicingArguments: ["perPage"], sizedFields: ["groups"], requireOneSlicingArgument: false)')
  @Mutation(() => VisualSearchResult, { description: 'Visual search with a photo the REST bridge stored (token, receipt and size checked); the photo is deleted after the search' })
  async visualProductSearchUpload(
    @Ctx() ctx: CatalogContext,
    @Arg('token') token: string,
    @Arg('object', () => StoredUploadInput) object: StoredUploadInput,
    @Arg('useObjectDetection', () => Boolean, { nullable: true }) useObjectDetection?: boolean | null,
    @Arg('perPage', () => Int, { nullable: true }) perPage?: number | null,
  ): Promise<VisualSearchResult> {
    return view(await search.visualSearchUpload(ctx, token, object, { useObjectDetection, perPage }));
  }
}
