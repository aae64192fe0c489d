// An app's registry of trusted operations: upload a manifest (operation-manifest.rules.ts), list,
// delete, and the "registered operations only" setting. Every change tells the gateways after
// commit (platform.operations.changed), which drop their copy of the app's registry.
import { DomainError } from '../../../lib/errors.js';
import { OPERATIONS_CHANGED_TOPIC, publishAfterCommit, type OperationsChangedPayload } from '../../../lib/events.js';
import type { PlatformContext } from '../context.js';
import { getApp } from '../apps/app.service.js';
import { fail } from '../validation.js';
import { ApiKeyEntity } from '../api-keys/api-key.entity.js';
import { readManifest } from './operation-manifest.rules.js';
import { RegisteredOperationPolicyEntity, type RegisteredOperationEntity } from './registered-operation.entity.js';
import { deleteOperation, findPolicy, insertOperations, listOperations, registryOf } from './registered-operation.repository.js';

export interface UploadOutcome {
  added: number;
  unchanged: number;
  total: number;
}

export interface RegistrySettings {
  appOnly: boolean;
  keyIds: string[];
}

export async function uploadManifest(ctx: PlatformContext, accountUrlId: string, appId: string, manifest: unknown): Promise<UploadOutcome> {
  const { app } = await getApp(ctx, accountUrlId, appId);
  const ops = readManifest(manifest);
  const added = await insertOperations(ctx.em, app.id, app.platform.id, ops);
  await changed(ctx, app.id);
  const total = (await listOperations(ctx.em, app.id)).length;
  return { added, unchanged: ops.length - added, total };
}

export async function listRegisteredOperations(ctx: PlatformContext, accountUrlId: string, appId: string): Promise<RegisteredOperationEntity[]> {
  const { app } = await getApp(ctx, accountUrlId, appId);
  return listOperations(ctx.em, app.id);
}

export async function deleteRegisteredOperation(ctx: PlatformContext, accountUrlId: string, appId: string, operationId: string): Promise<boolean> {
  const { app } = await getApp(ctx, accountUrlId, appId);
  if (!(await deleteOperation(ctx.em, app.id, operationId))) throw new DomainError('NOT_FOUND', `Operation ${operationId} is not registered for app ${app.id}`, { parameter: 'id' });
  await changed(ctx, app.id);
  return true;
}

export async function registrySettings(ctx: PlatformContext, accountUrlId: string, appId: string): Promise<RegistrySettings> {
  const { app } = await getApp(ctx, accountUrlId, appId);
  const p = await findPolicy(ctx.em, app.id);
  return { appOnly: p?.appOnly ?? false, keyIds: p?.keyIds ?? [] };
}

/** "Registered operations only" for the whole app (no keyId) or for one of its keys. */
export async function setRegisteredOperationsOnly(ctx: PlatformContext, accountUrlId: string, appId: string, enabled: boolean, keyId?: string): Promise<RegistrySettings> {
  const { app } = await getApp(ctx, accountUrlId, appId);
  if (keyId !== undefined) {
    const key = await ctx.em.findOne(ApiKeyEntity, { id: keyId, app: app.id, revokedAt: null });
    if (!key) fail('keyId', `key ${keyId} is not a live key of app ${app.id}`);
  }
  const policy = (await findPolicy(ctx.em, app.id)) ?? ctx.em.create(RegisteredOperationPolicyEntity, { app, platform: app.platform });
  if (keyId === undefined) policy.appOnly = enabled;
  else policy.keyIds = enabled ? [...new Set([...policy.keyIds, keyId])] : policy.keyIds.filter((k) => k !== keyId);
  policy.updatedAt = new Date();
  await ctx.em.flush();
  await changed(ctx, app.id);
  return { appOnly: policy.appOnly, keyIds: policy.keyIds };
}

/** Internal (gateway): the app's setting and operations, by the ids clients send. */
export async function operationRegistry(ctx: PlatformContext, appId: string): Promise<{ appOnly: boolean; keyIds: string[]; operations: { id: string; body: string }[] }> {
  if (ctx.tenant.kind !== 'service') throw new DomainError('FORBIDDEN', 'Internal operation: gateway only');
  const { policy, operations } = await registryOf(ctx.em, appId);
  return { appOnly: policy?.appOnly ?? false, keyIds: policy?.keyIds ?? [], operations: operations.map((o) => ({ id: o.operationId, body: o.body })) };
}

/** After the commit (the statements above ran outside a transaction, each committed): gateways drop their copy. */
async function changed(ctx: PlatformContext, appId: string): Promise<void> {
  const payload: OperationsChangedPayload = { appId, occurredAt: new Date().toISOString() };
  await publishAfterCommit(ctx, OPERATIONS_CHANGED_TOPIC, payload, 'operations.changed');
}
