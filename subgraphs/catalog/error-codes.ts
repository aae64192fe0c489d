// The catalog service's error codes (document 3 part A), as the spec writes them.
// Set on the subgraph's definition (index.ts); `npm run compose` writes them to schema/contract.json,
// from which the edges render them. The declaration below adds them to the ErrorCodes type.
import { defineErrors, type CodesOf } from '../../lib/errors.js';

export const CATALOG_ERRORS = defineErrors({
  PRODUCT_NOT_FOUND: { status: 404, title: 'Product not found' },
  SKU_ALREADY_EXISTS: { status: 409, title: 'SKU already in use' },
  INVALID_PRICE: { status: 422, title: 'Invalid price' },
  CATEGORY_NOT_FOUND: { status: 404, title: 'Category not found' },
  VARIANT_NOT_FOUND: { status: 404, title: 'Variant not found' },
  INVALID_OPTION_VALUES: { status: 422, title: 'Variant options do not match the product options' },
  BUNDLE_INVALID: { status: 422, title: 'Bundle configuration invalid' },
  COLLECTION_NOT_FOUND: { status: 404, title: 'Collection not found' },
  SLUG_ALREADY_EXISTS: { status: 409, title: 'Slug already in use' },
  // inventory (inventory/, locations/)
  INSUFFICIENT_INVENTORY: { status: 409, title: 'Not enough stock available' },
  INVENTORY_RESERVED: { status: 409, title: 'Stock reserved for other orders' },
  RESERVATION_NOT_FOUND: { status: 404, title: 'Reservation not found' },
  RESERVATION_NOT_ACTIVE: { status: 409, title: 'Reservation is not in a state that allows this' },
  LOCATION_NOT_FOUND: { status: 404, title: 'Location not found' },
  LOCATION_CODE_EXISTS: { status: 409, title: 'Location code already in use' },
  // product images (images/)
  IMAGE_UPLOAD_FAILED: { status: 422, title: 'Failed to upload product image' },
  IMAGE_NOT_FOUND: { status: 404, title: 'Image not found' },
});

declare module '../../lib/errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends CodesOf<typeof CATALOG_ERRORS> {}
}
