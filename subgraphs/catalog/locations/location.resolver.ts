import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { CatalogContext } from '../context.js';
import * as locations from './location.service.js';
import { CreateLocationInput, Location, toLocation } from './location.type.js';

@Resolver(() => Location)
export class LocationResolver {
  @Authorized('products:read')
  @Query(() => [Location], { description: 'Stock locations of the app, oldest first' })
  async inventoryLocations(@Ctx() ctx: CatalogContext): Promise<Location[]> {
    return (await locations.listLocations(ctx)).map(toLocation);
  }

  @Authorized('products:write')
  @Mutation(() => Location, { description: 'Create a stock location (code unique; the first one, or one with isDefault, is the default)' })
  async createInventoryLocation(@Ctx() ctx: CatalogContext, @Arg('input', () => CreateLocationInput) input: CreateLocationInput): Promise<Location> {
    return toLocation(await locations.createLocation(ctx, input));
  }
}
