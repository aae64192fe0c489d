// Product rows read by raw SQL, mapped straight to the API shape: what only reads (the list, an
// app's newest products) skips the ORM's hydration and identity map (docs/performance.md items 3, 29).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppPartition } from '../../../lib/tenant-entity.js';
import { rowDate, rowNumber, tableOf } from '../sql.js';
import { ProductEntity } from './product.entity.js';
import type { ProductData } from './product.type.js';

/** JSON columns arrive parsed from pg; a string (a driver without the json parser) is parsed here. */
function json<T>(v: unknown): T | null {
  if (v == null) return null;
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
}

/**
 * A page row as toProduct reads it, straight from the SQL row: the list only reads, so its rows skip
 * the ORM's hydration and identity map (the larger part of a list request's CPU, docs/performance.md).
 */
export function productFromRow(r: Record<string, unknown>): ProductData {
  return {
    id: r.id as string,
    appId: r.app_id as string,
    name: r.name as string,
    sku: r.sku as string,
    description: (r.description as string | null) ?? null,
    shortDescription: (r.short_description as string | null) ?? null,
    status: r.status as ProductData['status'],
    type: r.type as ProductData['type'],
    priceAmount: rowNumber(r.price_amount),
    priceCurrency: (r.price_currency as string | null) ?? null,
    compareAtAmount: rowNumber(r.compare_at_amount),
    costAmount: rowNumber(r.cost_amount),
    costCurrency: (r.cost_currency as string | null) ?? null,
    inventoryQuantity: Number(r.inventory_quantity),
    inventoryReserved: Number(r.inventory_reserved),
    trackStock: r.track_stock as boolean,
    allowBackorder: r.allow_backorder as boolean,
    lowStockThreshold: rowNumber(r.low_stock_threshold),
    weight: json(r.weight),
    dimensions: json(r.dimensions),
    attributes: json(r.attributes),
    seo: json(r.seo),
    metadata: json(r.metadata),
    options: json(r.options),
    bundleItems: json(r.bundle_items),
    bundlePricing: (r.bundle_pricing as string | null) ?? null,
    createdAt: rowDate(r.created_at),
    updatedAt: rowDate(r.updated_at),
    deletedAt: r.deleted_at == null ? null : rowDate(r.deleted_at),
  } as ProductData;
}

/**
 * An app's newest 100 live products (`App.products`), read as the list reads its rows: one statement
 * naming the partition, no hydration.
 */
export async function newestProducts(em: EntityManager, part: AppPartition): Promise<ProductData[]> {
  const rows = (await em.execute(
    `select p.* from ${tableOf(em, ProductEntity)} p where p.app_id = ? and p.environment = ? and p.deleted_at is null order by p.created_at desc, p.id desc limit 100`,
    [part.appId, part.environment],
  )) as Record<string, unknown>[];
  return rows.map(productFromRow);
}
