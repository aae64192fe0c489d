// The search document of a product and the engine settings of the product indexes: pure.
import type { EngineSettings } from '../../../lib/search-engine/index.js';
import { DEFAULT_SETTINGS } from '../../../lib/search-engine/index.js';

export interface IndexedProductRow {
  id: string;
  name: string;
  sku: string;
  description: string | null;
  short_description: string | null;
  status: string;
  type: string;
  price_amount: string | number | null;
  price_currency: string | null;
  attributes: Record<string, unknown> | null;
  inventory_quantity: number;
  inventory_reserved: number;
  track_stock: boolean;
  allow_backorder: boolean;
  created_at: Date | string;
  deleted_at: Date | string | null;
  categories: string[];
}

/** Price buckets of the price_range facet, in minor units: [min, max) with an open last bucket. */
export const PRICE_BUCKETS: readonly [number, number | null][] = [
  [0, 1000],
  [1000, 2500],
  [2500, 5000],
  [5000, 10000],
  [10000, 25000],
  [25000, 50000],
  [50000, null],
];

export function priceBucket(amount: number | null): string | null {
  if (amount == null) return null;
  const b = PRICE_BUCKETS.find(([min, max]) => amount >= min && (max === null || amount < max));
  return b ? `${b[0]}-${b[1] ?? ''}` : null;
}

/** A brand: attributes.brand (or vendor, as Shopify names it) when it is a string. */
function brandOf(attributes: Record<string, unknown> | null): string | null {
  const b = attributes?.brand ?? attributes?.vendor;
  return typeof b === 'string' && b.trim() ? b.trim() : null;
}

export function toSearchDocument(r: IndexedProductRow): Record<string, unknown> {
  const price = r.price_amount == null ? null : Number(r.price_amount);
  const available = Math.max(0, r.inventory_quantity - r.inventory_reserved);
  return {
    id: r.id,
    name: r.name,
    sku: r.sku,
    short_description: r.short_description ?? '',
    description: r.description ?? '',
    category: r.categories,
    brand: brandOf(r.attributes),
    price,
    currency: r.price_currency,
    price_range: priceBucket(price),
    status: r.status,
    type: r.type,
    in_stock: !r.track_stock || r.allow_backorder || available > 0,
    created_at: new Date(r.created_at).getTime(),
  };
}

export const PRODUCT_INDEX_SETTINGS: EngineSettings = {
  ...DEFAULT_SETTINGS,
  searchableAttributes: ['name', 'sku', 'brand', 'category', 'short_description', 'description'],
  filterableAttributes: ['category', 'brand', 'price', 'status', 'type', 'in_stock', 'price_range'],
  sortableAttributes: ['name', 'price', 'created_at'],
};
