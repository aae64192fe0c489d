// The API shape of a product image: the row plus its public URLs (derived from the id and the
// public base URL), joined by toProductImage().
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { ProductImageRow } from './image.repository.js';
import { imageUrls } from './image.rules.js';

@ObjectType({ description: 'WebP thumbnails of an image (fitted inside 150, 480 and 1024 pixels); each serves the original until it is made' })
export class ImageThumbnails {
  @Field() small!: string;
  @Field() medium!: string;
  @Field() large!: string;
}

@ObjectType({ description: 'An image of a product' })
export class ProductImage {
  @Field(() => ID) id!: string;
  @Field(() => ID) productId!: string;
  @Field({ description: 'the original file (public, cached for a year: an image never changes under its URL)' }) url!: string;
  @Field(() => String, { nullable: true }) altText!: string | null;
  @Field(() => Int, { description: 'place in the gallery, from 0' }) position!: number;
  @Field({ description: 'exactly one image of a product with images is primary' }) isPrimary!: boolean;
  @Field(() => Int, { description: 'pixels, as displayed (EXIF orientation applied)' }) width!: number;
  @Field(() => Int) height!: number;
  @Field({ description: 'image/jpeg, image/png, image/webp or image/gif, decided from the bytes' }) contentType!: string;
  @Field(() => Int) bytes!: number;
  @Field(() => ImageThumbnails) thumbnails!: ImageThumbnails;
  @Field({ description: 'pending while the thumbnail job runs, then ready (or failed: the thumbnails serve the original)' }) thumbnailStatus!: string;
  @Field({ description: 'pending while the visual-search embedding job runs, then ready (or failed: the image is not found by visual search)' }) embeddingStatus!: string;
  @Field() createdAt!: Date;
}

@ObjectType({ description: 'A signed URL to PUT one product image to (15 minutes, up to 10 MiB)' })
export class ProductImageUploadGrant {
  @Field(() => ID, { description: 'the id the image will have' }) id!: string;
  @Field() uploadUrl!: string;
  @Field({ description: 'the token inside uploadUrl' }) token!: string;
  @Field({ description: 'always PUT' }) method!: string;
  @Field() expiresAt!: Date;
  @Field(() => Int) maxBytes!: number;
}

@ObjectType({ description: 'A stored file behind a public image URL: what a client needs to show it (where it lives in storage stays internal)' })
export class ProductImageFile {
  @Field({ description: 'the public URL of this file' }) url!: string;
  @Field() contentType!: string;
  @Field(() => Int, { description: 'size in bytes' }) bytes!: number;
  @Field() cacheControl!: string;
  @Field({ description: 'opaque, sealed for the REST bridge that streams the file; names nothing a client can read' }) storageRef!: string;
}

export function toProductImage(publicUrl: string, e: ProductImageRow): ProductImage {
  const urls = imageUrls(publicUrl, e);
  return Object.assign(new ProductImage(), {
    id: e.id,
    productId: e.productId,
    url: urls.url,
    altText: e.altText,
    position: e.position,
    isPrimary: e.isPrimary,
    width: e.width,
    height: e.height,
    contentType: e.contentType,
    bytes: e.bytes,
    thumbnails: Object.assign(new ImageThumbnails(), urls.thumbnails),
    thumbnailStatus: e.thumbnailStatus,
    embeddingStatus: e.embeddingStatus,
    createdAt: e.createdAt,
  });
}
