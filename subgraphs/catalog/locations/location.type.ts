import { Field, ID, InputType, ObjectType } from 'type-graphql';
import type { LocationEntity } from './location.entity.js';

@ObjectType('LocationAddress')
export class LocationAddressType {
  @Field({ nullable: true }) line1?: string;
  @Field({ nullable: true }) line2?: string;
  @Field({ nullable: true }) city?: string;
  @Field({ nullable: true }) state?: string;
  @Field({ nullable: true }) postalCode?: string;
  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2' }) country?: string;
}

@InputType()
export class LocationAddressInput {
  @Field({ nullable: true }) line1?: string;
  @Field({ nullable: true }) line2?: string;
  @Field({ nullable: true }) city?: string;
  @Field({ nullable: true }) state?: string;
  @Field({ nullable: true }) postalCode?: string;
  @Field({ nullable: true }) country?: string;
}

@InputType()
export class CreateLocationInput {
  @Field() name!: string;
  @Field({ description: 'unique per app and environment' }) code!: string;
  @Field({ nullable: true, description: 'warehouse (default), store, …: lower-case letters and _' }) type?: string;
  @Field(() => LocationAddressInput, { nullable: true }) address?: LocationAddressInput;
  @Field({ nullable: true, description: 'make it the default location (the first location is the default anyway)' }) isDefault?: boolean;
}

@ObjectType()
export class Location {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() code!: string;
  @Field() type!: string;
  @Field(() => LocationAddressType, { nullable: true }) address?: LocationAddressType | null;
  @Field() isDefault!: boolean;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

export function toLocation(e: LocationEntity): Location {
  return Object.assign(new Location(), {
    id: e.id,
    name: e.name,
    code: e.code,
    type: e.type,
    address: e.address ?? null,
    isDefault: e.isDefault,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  });
}
