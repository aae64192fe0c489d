import { Arg, Authorized, Ctx, Field, ID, Int, ObjectType, Query, Resolver, Directive } from 'type-graphql';
import type { CatalogContext } from '../context.js';
import { Product, toProduct } from '../products/product.type.js';
import * as search from './search.service.js';

@ObjectType()
export class FacetCount {
  @Field() value!: string;
  @Field(() => Int) count!: number;
}

@ObjectType()
export class PriceRangeCount {
  @Field(() => Int) min!: number;
  @Field(() => Int, { nullable: true, description: 'null: open-ended' }) max!: number | null;
  @Field(() => Int) count!: number;
}

@ObjectType()
export class ProductSearchFacets {
  @Field(() => [FacetCount]) category!: FacetCount[];
  @Field(() => [FacetCount]) brand!: FacetCount[];
  @Field(() => [PriceRangeCount]) priceRange!: PriceRangeCount[];
}

@ObjectType()
export class ProductSearchResult {
  @Field(() => [Product]) items!: Product[];
  @Field(() => Int) total!: number;
  @Field(() => Int) page!: number;
  @Field(() => Int) perPage!: number;
  @Field(() => ProductSearchFacets) facets!: ProductSearchFacets;
  @Field(() => [String]) suggestions!: string[];
}

@ObjectType()
export class SuggestedProduct {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true, description: "the primary image's URL; null while the product has no image" }) imageUrl!: string | null;
}

@ObjectType()
export class ProductSuggestions {
  @Field(() => [String]) suggestions!: string[];
  @Field(() => [SuggestedProduct]) products!: SuggestedProduct[];
}

@Resolver()
export class ProductSearchResolver {
  @Authorized('products:read')
  @Directive('@cost(weight: 10)')
  @Directive('@listSize(slicingArguments: ["perPage"], sizedFields: ["items"], requireOneSlicingArgument: false)')
  @Query(() => ProductSearchResult, { description: 'Typo-tolerant ranked search over active products, with facets (category, brand, price_range) and suggestions' })
  async productSearch(
    @Ctx() ctx: CatalogContext,
    @Arg('q', () => String, { nullable: true }) q: string | null,
    @Arg('category', () => String, { nullable: true, description: 'category id, slug or name' }) category: string | null,
    @Arg('brand', () => String, { nullable: true, description: 'attributes.brand' }) brand: string | null,
    @Arg('priceMin', () => Int, { nullable: true }) priceMin: number | null,
    @Arg('priceMax', () => Int, { nullable: true }) priceMax: number | null,
    @Arg('sort', () => String, { nullable: true, description: 'relevance (default), name, -name, price, -price, created_at, -created_at' }) sort: string | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('perPage', () => Int, { defaultValue: 20 }) perPage: number,
  ): Promise<ProductSearchResult> {
    const r = await search.searchProducts(ctx, { q, category, brand, priceMin, priceMax, sort, page, perPage });
    const rows = await ctx.loaders.productById.loadMany(r.ids);
    const items = rows.flatMap((p) => (p && !(p instanceof Error) ? [toProduct(p)] : []));
    return { items, total: r.total, page: r.page, perPage: r.perPage, facets: { category: r.categories, brand: r.brands, priceRange: r.priceRanges }, suggestions: r.suggestions };
  }

  @Authorized('products:read')
  @Directive('@cost(weight: 5)')
  @Directive('@listSize(slicingArguments: ["limit"], sizedFields: ["products"], requireOneSlicingArgument: false)')
  @Query(() => ProductSuggestions, { description: 'Type-ahead suggestions and matching products for a prefix' })
  async productSuggest(@Ctx() ctx: CatalogContext, @Arg('q') q: string, @Arg('limit', () => Int, { defaultValue: 8 }) limit: number): Promise<ProductSuggestions> {
    const r = await search.suggestProducts(ctx, q, limit);
    return { suggestions: r.suggestions, products: r.products.map((p) => ({ ...p, imageUrl: null })) };
  }
}
