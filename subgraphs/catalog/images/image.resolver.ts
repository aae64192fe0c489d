import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Directive } from 'type-graphql';
import { StoredUploadInput } from '../../../lib/stored-upload.js';
import { mapNow } from '../../../lib/loaders.js';
import type { CatalogContext } from '../context.js';
import { Product } from '../products/product.type.js';
import type { ProductImageRow } from './image.repository.js';
import { IMAGES_PER_PRODUCT } from './image.rules.js';
import * as images from './image.service.js';
import { ProductImage, ProductImageFile, ProductImageUploadGrant, toProductImage } from './image.type.js';

const view = (ctx: CatalogContext) => (e: ProductImageRow) => toProductImage(ctx.runtime.images.publicUrl, e);

@Resolver(() => Product)
export class ProductImagesFieldResolver {
  @Directive('@listSize(slicingArguments: ["first"], requireOneSlicingArgument: false)')
  @FieldResolver(() => [ProductImage], { description: 'the product images, by position (the first `first` of them)' })
  // not async: a page primed the loader with its images (product.page.ts), answered at once
  images(@Ctx() ctx: CatalogContext, @Root() p: Product, @Arg('first', () => Int, { defaultValue: IMAGES_PER_PRODUCT }) first: number): ProductImage[] | Promise<ProductImage[]> {
    const shown = (rows: ProductImageRow[]) => rows.slice(0, Math.max(0, first)).map(view(ctx));
    return mapNow(ctx.loaders.imagesByProduct.loadNow(p.id), shown);
  }
}

@Resolver()
export class ProductImageResolver {
  @Authorized('products:read')
  @Query(() => [ProductImage], { description: 'Images of a product, by position' })
  async productImages(@Ctx() ctx: CatalogContext, @Arg('productId', () => ID) productId: string): Promise<ProductImage[]> {
    return (await images.listImages(ctx, productId)).map(view(ctx));
  }

  @Authorized('products:write')
  @Mutation(() => ProductImageUploadGrant, { description: 'A signed URL to PUT one image of the product to (JPEG, PNG, WebP or GIF, up to 10 MiB); the fields apply when it arrives' })
  async presignProductImageUpload(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('altText', () => String, { nullable: true }) altText?: string | null,
    @Arg('position', () => Int, { nullable: true }) position?: number | null,
    @Arg('isPrimary', () => Boolean, { nullable: true }) isPrimary?: boolean | null,
  ): Promise<ProductImageUploadGrant> {
    return Object.assign(new ProductImageUploadGrant(), await images.presignImageUpload(ctx, productId, { altText, position, isPrimary }));
  }

  /** Public: the signed token and the bridge's receipt are the credentials. Called by the REST bridge once the bytes are stored. */
  @Directive('@cost(weight: 50)')
  @Mutation(() => ProductImage, { description: 'Record a product image the REST bridge streamed into the object store (token, receipt and stored size checked); thumbnails follow in a job' })
  async recordProductImageUpload(
    @Ctx() ctx: CatalogContext,
    @Arg('token') token: string,
    @Arg('object', () => StoredUploadInput) object: StoredUploadInput,
    @Arg('altText', () => String, { nullable: true }) altText?: string | null,
    @Arg('position', () => Int, { nullable: true }) position?: number | null,
    @Arg('isPrimary', () => Boolean, { nullable: true }) isPrimary?: boolean | null,
  ): Promise<ProductImage> {
    return view(ctx)(await images.recordImageUpload(ctx, token, object, { altText, position, isPrimary }));
  }

  @Authorized('products:write')
  @Mutation(() => [ProductImage], { description: 'Put the product images in this order (every image of the product, once each)' })
  async reorderProductImages(@Ctx() ctx: CatalogContext, @Arg('productId', () => ID) productId: string, @Arg('imageIds', () => [ID]) imageIds: string[]): Promise<ProductImage[]> {
    return (await images.reorderImages(ctx, productId, imageIds)).map(view(ctx));
  }

  @Authorized('products:write')
  @Mutation(() => ProductImage, { description: 'Change the alt text, or make the image the primary one' })
  async updateProductImage(
    @Ctx() ctx: CatalogContext,
    @Arg('productId', () => ID) productId: string,
    @Arg('imageId', () => ID) imageId: string,
    @Arg('altText', () => String, { nullable: true }) altText?: string | null,
    @Arg('isPrimary', () => Boolean, { nullable: true }) isPrimary?: boolean | null,
  ): Promise<ProductImage> {
    return view(ctx)(await images.updateImage(ctx, productId, imageId, { altText, isPrimary }));
  }

  @Authorized('products:write')
  @Mutation(() => ProductImage, { description: 'Remove an image and its stored files; the next image becomes primary when it was' })
  async deleteProductImage(@Ctx() ctx: CatalogContext, @Arg('productId', () => ID) productId: string, @Arg('imageId', () => ID) imageId: string): Promise<ProductImage> {
    return view(ctx)(await images.deleteImage(ctx, productId, imageId));
  }

  /** Public: image URLs are public (a storefront shows them); the image id is unguessable. */
  @Query(() => ProductImageFile, { description: 'The stored file behind a public image URL' })
  async productImageFile(@Ctx() ctx: CatalogContext, @Arg('imageId', () => ID) imageId: string, @Arg('file') file: string): Promise<ProductImageFile> {
    return Object.assign(new ProductImageFile(), await images.imageFile(ctx, imageId, file));
  }
}
