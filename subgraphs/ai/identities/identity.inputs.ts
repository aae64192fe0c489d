import { ArgsType, Field } from 'type-graphql';

/** `userUniqueId: String!`, shared by registerIdentity and identity. */
@ArgsType()
export class UserUniqueIdArgs {
  @Field({ description: 'The authentication-service user identifier (JWT `sub`), 1 to 255 characters' })
  userUniqueId!: string;
}
