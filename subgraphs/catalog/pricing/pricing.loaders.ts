// Per-request loaders of the pricing aggregate: effective prices batched per query (a page of
// products → one statement), and the base price a product's variants derive theirs from.
import DataLoader from 'dataloader';
import { loaderFamily, PrimedLoader } from '../../../lib/loaders.js';
import type { CatalogContext } from '../context.js';
import type { ProductData } from '../products/product.type.js';
import { effectivePrices, MAX_PRICE_BATCH, type EffectivePriceValue, type PriceQuery, type PriceRequest } from './pricing.service.js';

declare module '../context.js' {
  interface CatalogLoaders {
    /** effective prices for one query (currency, customer, instant), per product and quantity */
    effectivePrice(query: PriceQuery): DataLoader<PriceRequest, EffectivePriceValue, string>;
    /**
     * The effective price (quantity 1, now, the product's own currency) a product's variants derive
     * their prices from (`Variant.price`): null for a product that is deleted or has no price of its
     * own. The product page primes it for its products (primeFrom).
     */
    variantBasePrice: BasePriceLoader;
  }
}

export function pricingLoaders(ctx: CatalogContext): Pick<CatalogContext['loaders'], 'effectivePrice' | 'variantBasePrice'> {
  return {
    effectivePrice: loaderFamily(
      (q: PriceQuery) => JSON.stringify([q.currency, q.customerId ?? null, q.customerGroupIds ?? [], q.at?.toISOString() ?? null]),
      (q: PriceQuery) =>
        new DataLoader<PriceRequest, EffectivePriceValue, string>(async (reqs) => (await effectivePrices(ctx, [...reqs], q)).map((o) => (o.ok ? o.price : o.error)), {
          cacheKeyFn: (r) => `${r.productId}:${r.quantity ?? 1}`,
          maxBatchSize: MAX_PRICE_BATCH,
        }),
    ),
    variantBasePrice: new BasePriceLoader(ctx),
  };
}

type Priced = Pick<ProductData, 'id' | 'priceCurrency' | 'priceAmount' | 'deletedAt'>;

/**
 * The variants' base price of each product, in order: null for a product that is gone (null), deleted
 * or without a price of its own; one batch per currency; a product's load error passed on.
 */
async function basePrices(ctx: CatalogContext, products: readonly (Priced | null | Error)[]): Promise<(EffectivePriceValue | null | Error)[]> {
  const out: (EffectivePriceValue | null | Error)[] = products.map((p) => (p instanceof Error ? p : null));
  const byCurrency = new Map<string, number[]>();
  products.forEach((p, i) => {
    if (!p || p instanceof Error || p.deletedAt || !p.priceCurrency || p.priceAmount == null) return;
    const at = byCurrency.get(p.priceCurrency);
    if (at) at.push(i);
    else byCurrency.set(p.priceCurrency, [i]);
  });
  await Promise.all(
    [...byCurrency].map(async ([currency, at]) => {
      const prices = await ctx.loaders.effectivePrice({ currency }).loadMany(at.map((i) => ({ productId: (products[i] as Priced).id })));
      at.forEach((i, k) => (out[i] = prices[k]));
    }),
  );
  return out;
}

/** The variants' base prices: by id (the product loaded), or primed from products a page read already. */
export class BasePriceLoader extends PrimedLoader<string, EffectivePriceValue | null> {
  constructor(private readonly ctx: CatalogContext) {
    super(async (ids) => basePrices(ctx, await ctx.loaders.productById.loadMany(ids)));
  }

  /** Prime the base prices of `products` (one batch per currency), read as a load would read them. */
  async primeFrom(products: readonly ProductData[]): Promise<void> {
    const prices = await basePrices(this.ctx, products);
    products.forEach((p, i) => this.prime(p.id, prices[i]));
  }
}
