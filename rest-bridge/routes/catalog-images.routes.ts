// Product images of the products service (document 3 part A; docs/catalog-images.md): the upload
// as multipart/form-data (file, alt_text, position, is_primary) or as a PUT to a presigned URL,
// streamed into the object store; list, reorder, change, delete; and the public image files with
// their content type and cache headers.
import { PRODUCT_IMAGE_UPLOAD } from '../contract-limits.js';
import { resource } from '../jsonapi.js';
import type { Route } from '../types.js';

const base = { service: 'products', auth: 'apiKey' } as const;
const imageRes = (i: Record<string, unknown>) => resource('product_images', i);
const upload = PRODUCT_IMAGE_UPLOAD;

export const CATALOG_IMAGE_ROUTES: Route[] = [
  {
    ...base,
    method: 'POST',
    path: '/v1/products/:id/images',
    operation: 'RecordProductImageUpload',
    summary:
      'Add an image: multipart/form-data with file (JPEG, PNG, WebP or GIF by its bytes, at most 10 MiB), alt_text, position (from 0; default last), is_primary. Answers at once with its URLs; WebP thumbnails follow (IMAGE_UPLOAD_FAILED with a reason for a file that is not such an image) (products:write)',
    multipart: {
      ...upload,
      file: 'file',
      fields: {
        alt_text: { graphql: 'altText', type: 'string', description: `at most 512 characters` },
        position: { graphql: 'position', type: 'integer', description: 'place in the gallery from 0; default: last' },
        is_primary: { graphql: 'isPrimary', type: 'boolean', description: "true: this becomes the product's primary image (the first image always is)" },
      },
      grant: {
        operation: 'PresignProductImageUpload',
        variables: (r) => ({ productId: r.params.id }),
        token: (d) => d.presignProductImageUpload.token,
      },
      refusedCode: 'IMAGE_UPLOAD_FAILED',
    },
    variables: (r) => ({ token: r.uploadToken, ...r.form, object: r.upload }),
    result: (d) => ({ data: imageRes(d.recordProductImageUpload) }),
    status: 201,
    responseType: 'product_images',
    scope: 'products:write',
  },
  {
    ...base,
    method: 'GET',
    path: '/v1/products/:id/images',
    operation: 'ListProductImages',
    summary: 'Images of a product, by position (products:read)',
    variables: (r) => ({ productId: r.params.id }),
    result: (d) => ({ data: d.productImages.map(imageRes), meta: { total: d.productImages.length } }),
    status: 200,
    responseType: 'product_images',
    list: true,
    scope: 'products:read',
  },
  {
    ...base,
    method: 'PUT',
    path: '/v1/products/:id/images/reorder',
    operation: 'ReorderProductImages',
    summary: 'Put the images in this order: data.image_ids lists every image of the product once (products:write)',
    body: { type: 'product_images', args: ['imageIds'], inData: true },
    variables: (r) => ({ productId: r.params.id, imageIds: r.attributes.imageIds }),
    result: (d) => ({ data: d.reorderProductImages.map(imageRes), meta: { total: d.reorderProductImages.length } }),
    status: 200,
    responseType: 'product_images',
    list: true,
    scope: 'products:write',
  },
  {
    ...base,
    method: 'PATCH',
    path: '/v1/products/:id/images/:image_id',
    operation: 'UpdateProductImage',
    summary: 'Change alt_text, or make the image primary (is_primary: true) (products:write)',
    body: { type: 'product_images', args: ['altText', 'isPrimary'] },
    variables: (r) => ({ productId: r.params.id, imageId: r.params.image_id, ...r.attributes }),
    result: (d) => ({ data: imageRes(d.updateProductImage) }),
    status: 200,
    responseType: 'product_images',
    scope: 'products:write',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/v1/products/:id/images/:image_id',
    operation: 'DeleteProductImage',
    summary: 'Remove an image and its stored files; the next image becomes primary when it was (products:write)',
    variables: (r) => ({ productId: r.params.id, imageId: r.params.image_id }),
    result: (d) => ({ data: imageRes(d.deleteProductImage), meta: { deleted: true } }),
    status: 200,
    responseType: 'product_images',
    scope: 'products:write',
  },
  {
    service: 'products',
    auth: 'none',
    method: 'PUT',
    path: '/v1/uploads/:token',
    operation: 'RecordPresignedProductImageUpload',
    summary: 'Upload a product image to a presigned URL (GraphQL presignProductImageUpload): the raw bytes as the body; the signed URL is the credential',
    upload,
    variables: (r) => ({ token: r.params.token, object: r.upload }),
    result: (d) => ({ data: imageRes(d.recordProductImageUpload) }),
    status: 201,
    responseType: 'product_images',
  },
  {
    service: 'products',
    auth: 'none',
    method: 'GET',
    path: '/v1/product-images/:image_id/:file',
    operation: 'GetProductImageFile',
    summary: "A product image file (public: the URLs in an image's url and thumbnails): original.<ext>, small.webp, medium.webp, large.webp",
    variables: (r) => ({ imageId: r.params.image_id, file: r.params.file }),
    result: (d) => ({ data: resource('product_image_files', { id: 'file', url: d.productImageFile.url, contentType: d.productImageFile.contentType, bytes: d.productImageFile.bytes }) }),
    raw: (d) => ({
      contentType: d.productImageFile.contentType,
      objectRef: d.productImageFile.storageRef,
      headers: { 'cache-control': d.productImageFile.cacheControl, 'x-content-type-options': 'nosniff' },
    }),
    status: 200,
    responseType: 'product_image_files',
  },
];
