// The limits the edges check before calling the catalog (lib/contract.ts): `npm run compose` writes
// them to schema/contract.json, from which the REST bridge reads its page bounds and upload rules.
import type { ContractLimits } from '../../lib/contract.js';
import { IMAGE_MAX_BYTES, IMAGE_TYPES, IMAGE_UPLOAD_PURPOSE } from './images/image.rules.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './request.js';
import { VISUAL_SEARCH_DEFAULT_PER_PAGE, VISUAL_SEARCH_MAX_PER_PAGE, VISUAL_SEARCH_PURPOSE } from './vision/vision.rules.js';

export const CATALOG_LIMITS: ContractLimits = {
  pages: {
    /** products, categories and collections */
    list: { default: DEFAULT_PAGE_SIZE, max: MAX_PAGE_SIZE },
    /** results per visual search */
    visualSearch: { default: VISUAL_SEARCH_DEFAULT_PER_PAGE, max: VISUAL_SEARCH_MAX_PER_PAGE },
  },
  uploads: {
    productImage: { purpose: IMAGE_UPLOAD_PURPOSE, maxBytes: IMAGE_MAX_BYTES, types: IMAGE_TYPES },
    visualSearch: { purpose: VISUAL_SEARCH_PURPOSE, maxBytes: IMAGE_MAX_BYTES, types: IMAGE_TYPES },
  },
};
