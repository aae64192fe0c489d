import { Arg, Authorized, Ctx, Field, FieldResolver, ID, Int, Mutation, ObjectType, Query, Resolver, Root, Directive } from 'type-graphql';
import type { CatalogContext } from '../context.js';
import { Product, toProduct } from '../products/product.type.js';
import { MAX_PAGE_SIZE } from '../request.js';
import { CreateCategoryInput, UpdateCategoryInput } from './category.inputs.js';
import { Category, CategoryPage, toCategory } from './category.type.js';
import * as categories from './category.service.js';

@ObjectType()
export class CategoryProductsResult {
  @Field(() => Category) category!: Category;
  @Field(() => Int, { description: 'products newly assigned by this call (already assigned ones are not counted)' }) added!: number;
}

@Resolver(() => Category)
export class CategoryResolver {
  @Authorized('products:read')
  @Query(() => Category, { description: 'A category of the calling app; CATEGORY_NOT_FOUND otherwise' })
  async category(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string): Promise<Category> {
    return toCategory(await categories.getCategory(ctx, id));
  }

  @Authorized('products:read')
  @Query(() => Category, { description: 'A category by its slug' })
  async categoryBySlug(@Ctx() ctx: CatalogContext, @Arg('slug') slug: string): Promise<Category> {
    return toCategory(await categories.getCategoryBySlug(ctx, slug));
  }

  @Authorized('products:read')
  @Directive('@listSize(slicingArguments: ["pageSize"], sizedFields: ["items"], requireOneSlicingArgument: false)')
  @Query(() => CategoryPage, { description: 'Categories by position; rootsOnly or parentId narrow to one level' })
  async categories(
    @Ctx() ctx: CatalogContext,
    @Arg('parentId', () => ID, { nullable: true }) parentId: string | undefined,
    @Arg('rootsOnly', { defaultValue: false }) rootsOnly: boolean,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('pageSize', () => Int, { defaultValue: 20 }) pageSize: number,
  ): Promise<CategoryPage> {
    const { items, total } = await categories.listCategories(ctx, { parentId: rootsOnly ? null : (parentId ?? undefined), page, pageSize });
    return { items: items.map((c) => toCategory(c)), total, page, pageSize };
  }

  @Authorized('products:read')
  @Query(() => [Category], { description: 'The whole tree (or the subtree under rootId) depth-first with `depth`, read in one recursive query' })
  async categoryTree(@Ctx() ctx: CatalogContext, @Arg('rootId', () => ID, { nullable: true }) rootId?: string): Promise<Category[]> {
    return (await categories.categoryTree(ctx, rootId ?? undefined)).map((r) => toCategory(r.category, r.depth));
  }

  @Authorized('products:write')
  @Mutation(() => Category)
  async createCategory(@Ctx() ctx: CatalogContext, @Arg('input', () => CreateCategoryInput) input: CreateCategoryInput): Promise<Category> {
    return toCategory(await categories.createCategory(ctx, input));
  }

  @Authorized('products:write')
  @Mutation(() => Category, { description: 'Rename, re-slug, move (parentId) or reorder (position); moving under its own descendant is refused' })
  async updateCategory(
    @Ctx() ctx: CatalogContext,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateCategoryInput) input: UpdateCategoryInput,
  ): Promise<Category> {
    return toCategory(await categories.updateCategory(ctx, id, input));
  }

  @Authorized('products:write')
  @Mutation(() => Category, { description: 'Delete a category without subcategories; its product assignments go with it' })
  async deleteCategory(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string): Promise<Category> {
    return toCategory(await categories.deleteCategory(ctx, id));
  }

  @Authorized('products:write')
  @Mutation(() => CategoryProductsResult, { description: 'Assign products (all or nothing; idempotent)' })
  async assignCategoryProducts(
    @Ctx() ctx: CatalogContext,
    @Arg('id', () => ID) id: string,
    @Arg('productIds', () => [ID]) productIds: string[],
  ): Promise<CategoryProductsResult> {
    const r = await categories.assignProducts(ctx, id, productIds);
    return Object.assign(new CategoryProductsResult(), { category: toCategory(r.category), added: r.added });
  }

  @Authorized('products:write')
  @Mutation(() => Category, { description: 'Remove one product from a category' })
  async removeCategoryProduct(@Ctx() ctx: CatalogContext, @Arg('id', () => ID) id: string, @Arg('productId', () => ID) productId: string): Promise<Category> {
    return toCategory(await categories.unassignProduct(ctx, id, productId));
  }

  @FieldResolver(() => [Category], { description: 'direct subcategories, by position' })
  async children(@Root() c: Category, @Ctx() ctx: CatalogContext): Promise<Category[]> {
    return (await ctx.loaders.childrenByParent.load(c.id)).map((x) => toCategory(x));
  }

  @FieldResolver(() => Int, { description: 'products assigned directly to this category (deleted ones not counted)' })
  async productCount(@Root() c: Category, @Ctx() ctx: CatalogContext): Promise<number> {
    return ctx.loaders.productCountByCategory.load(c.id);
  }

  @Directive('@listSize(slicingArguments: ["first"], requireOneSlicingArgument: false)')
  @FieldResolver(() => [Product], { description: 'products assigned directly to this category, newest first' })
  async products(
    @Root() c: Category,
    @Ctx() ctx: CatalogContext,
    @Arg('first', () => Int, { defaultValue: 20, description: `at most ${MAX_PAGE_SIZE}` }) first: number,
  ): Promise<Product[]> {
    const limit = Math.max(1, Math.min(first, MAX_PAGE_SIZE));
    return (await ctx.loaders.productsByCategory(limit).load(c.id)).map(toProduct);
  }
}
