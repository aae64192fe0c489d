import { Arg, Authorized, Ctx, Directive, ID, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import type { PlatformContext } from '../context.js';
import { OperationManifestUpload, OperationRegistry, RegisteredOperation, RegisteredOperationsSetting, toRegisteredOperation } from './registered-operation.type.js';
import * as registry from './registered-operation.service.js';

@Resolver(() => RegisteredOperation)
export class RegisteredOperationResolver {
  @Authorized('platform:read')
  @Query(() => [RegisteredOperation], { description: "An app's registered (trusted) operations, by id" })
  async registeredOperations(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('appId', () => ID) appId: string): Promise<RegisteredOperation[]> {
    return (await registry.listRegisteredOperations(ctx, accountUrlId, appId)).map(toRegisteredOperation);
  }

  @Authorized('platform:read')
  @Query(() => RegisteredOperationsSetting, { description: 'Whether the app, or which of its keys, accept registered operations only' })
  async registeredOperationsSetting(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('appId', () => ID) appId: string): Promise<RegisteredOperationsSetting> {
    return registry.registrySettings(ctx, accountUrlId, appId);
  }

  @Authorized('platform:manage')
  @Mutation(() => OperationManifestUpload, {
    description:
      'Register operations from a manifest: Apollo Client\'s persisted-query manifest ({format: "apollo-persisted-query-manifest", version: 1, operations: [{id, name, type, body}]}) or GraphQL Codegen\'s persisted-documents.json ({"<hash>": "<document>"})',
  })
  async uploadOperationManifest(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('appId', () => ID) appId: string,
    @Arg('manifest', () => GraphQLJSON) manifest: unknown,
  ): Promise<OperationManifestUpload> {
    return registry.uploadManifest(ctx, accountUrlId, appId, manifest);
  }

  @Authorized('platform:manage')
  @Mutation(() => Boolean, { description: 'Unregister one operation by its id' })
  async deleteRegisteredOperation(@Ctx() ctx: PlatformContext, @Arg('accountUrlId') accountUrlId: string, @Arg('appId', () => ID) appId: string, @Arg('id', () => ID) id: string): Promise<boolean> {
    return registry.deleteRegisteredOperation(ctx, accountUrlId, appId, id);
  }

  @Authorized('platform:manage')
  @Mutation(() => RegisteredOperationsSetting, { description: '"Registered operations only" on or off, for the whole app or (keyId) one of its keys' })
  async setRegisteredOperationsOnly(
    @Ctx() ctx: PlatformContext,
    @Arg('accountUrlId') accountUrlId: string,
    @Arg('appId', () => ID) appId: string,
    @Arg('enabled') enabled: boolean,
    @Arg('keyId', () => ID, { nullable: true }) keyId?: string,
  ): Promise<RegisteredOperationsSetting> {
    return registry.setRegisteredOperationsOnly(ctx, accountUrlId, appId, enabled, keyId ?? undefined);
  }

  @Directive('@inaccessible')
  @Query(() => OperationRegistry, { description: 'Internal (gateway, service callers only)' })
  async _operationRegistry(@Ctx() ctx: PlatformContext, @Arg('appId', () => ID) appId: string): Promise<OperationRegistry> {
    return registry.operationRegistry(ctx, appId);
  }
}
