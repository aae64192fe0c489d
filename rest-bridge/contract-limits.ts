// The limits the bridge checks before it calls a subgraph (page bounds, uploads), read from the
// generated contract (schema/contract.json, lib/contract.ts) when the route table is built: each
// subgraph writes its limits once, on its SubgraphDefinition, and checks them again itself.
import { loadContract, pageLimit, uploadLimit } from '../lib/contract.js';
import { MEDIA_TYPES, type MediaType } from '../lib/media-type.js';

const contract = loadContract();

/** products, categories and collections */
export const CATALOG_PAGE = pageLimit(contract, 'catalog', 'list');
/** results per visual search */
export const VISUAL_SEARCH_PAGE = pageLimit(contract, 'catalog', 'visualSearch');
export const ACCOUNT_PAGE = pageLimit(contract, 'platform', 'accounts');
/** the search service's index list */
export const INDEX_PAGE = pageLimit(contract, 'search', 'indexes');

export const PRODUCT_IMAGE_UPLOAD = upload('catalog', 'productImage');
export const VISUAL_SEARCH_UPLOAD = upload('catalog', 'visualSearch');

/** An upload limit with its types checked against the ones the bridge can sniff (lib/media-type.ts). */
function upload(service: string, name: string): { purpose: string; maxBytes: number; types: readonly MediaType[] } {
  const { purpose, maxBytes, types } = uploadLimit(contract, service, name);
  const unknown = types.filter((t) => !(MEDIA_TYPES as readonly string[]).includes(t));
  if (unknown.length) throw new Error(`schema/contract.json: ${service}.${name} takes ${unknown.join(', ')}, which the bridge cannot recognise`);
  return { purpose, maxBytes, types: types as readonly MediaType[] };
}
