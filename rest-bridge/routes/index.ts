// THE route table: every documented REST path the bridge serves, split per service.
import type { Route } from '../types.js';
import { AI_ROUTES } from './ai.routes.js';
import { AI_CUSTOM_ROUTES } from './ai-custom.routes.js';
import { AI_IMAGE_ROUTES } from './ai-images.routes.js';
import { CATALOG_ROUTES } from './catalog.routes.js';
import { CATALOG_CATEGORY_ROUTES } from './catalog-categories.routes.js';
import { CATALOG_PRICING_ROUTES } from './catalog-pricing.routes.js';
import { CATALOG_COLLECTION_ROUTES } from './catalog-collections.routes.js';
import { CATALOG_VARIANT_ROUTES } from './catalog-variants.routes.js';
import { CATALOG_SEARCH_ROUTES } from './catalog-search.routes.js';
import { CATALOG_IMAGE_ROUTES } from './catalog-images.routes.js';
import { CATALOG_VISION_ROUTES } from './catalog-vision.routes.js';
import { PLATFORM_ROUTES } from './platform.routes.js';
import { SEARCH_ROUTES } from './search.routes.js';
import { PLATFORM_ACCOUNT_ROUTES } from './platform-accounts.routes.js';
import { PLATFORM_OPERATOR_ROUTES } from './platform-operators.routes.js';
import { PLATFORM_APP_ROUTES } from './platform-apps.routes.js';
import { PLATFORM_OPERATION_ROUTES } from './platform-operations.routes.js';
import { PLATFORM_BLOCK_ROUTES } from './platform-blocks.routes.js';
import { PLATFORM_ACCESS_ROUTES } from './platform-access.routes.js';
import { PLATFORM_SERVICES_ROUTES } from './platform-services.routes.js';
import { PLATFORM_TRANSFER_ROUTES } from './platform-transfers.routes.js';
import { PLATFORM_BILLING_ROUTES } from './platform-billing.routes.js';
import { PLATFORM_REPORTING_ROUTES } from './platform-reporting.routes.js';
import { CATALOG_INVENTORY_ROUTES } from './catalog-inventory.routes.js';

export const ROUTES: readonly Route[] = [
  ...PLATFORM_ROUTES,
  ...PLATFORM_ACCOUNT_ROUTES,
  ...PLATFORM_OPERATOR_ROUTES,
  ...PLATFORM_APP_ROUTES,
  ...PLATFORM_OPERATION_ROUTES,
  ...PLATFORM_BLOCK_ROUTES,
  ...PLATFORM_ACCESS_ROUTES,
  ...PLATFORM_SERVICES_ROUTES,
  ...PLATFORM_TRANSFER_ROUTES,
  ...PLATFORM_BILLING_ROUTES,
  ...PLATFORM_REPORTING_ROUTES,
  ...CATALOG_ROUTES,
  ...CATALOG_CATEGORY_ROUTES,
  ...CATALOG_PRICING_ROUTES,
  ...CATALOG_COLLECTION_ROUTES,
  ...CATALOG_VARIANT_ROUTES,
  ...CATALOG_SEARCH_ROUTES,
  ...CATALOG_INVENTORY_ROUTES,
  ...CATALOG_IMAGE_ROUTES,
  ...CATALOG_VISION_ROUTES,
  ...SEARCH_ROUTES,
  ...AI_ROUTES,
  ...AI_CUSTOM_ROUTES,
  ...AI_IMAGE_ROUTES,
];
