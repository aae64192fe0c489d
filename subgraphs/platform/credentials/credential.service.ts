// Third-party and cloud credentials of an account (/accounts/:url_id/keys). Secrets are sealed
// with the master key before they reach the unit of work, so plaintext never touches a row.
import { mergeExtraAttributes } from '../../../lib/extra-attributes.js';
import { lastFourOf } from '../../../lib/crypto.js';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { recordAccountEvent, withAccountEvents } from '../notifications/account-events.js';
import { credentialSecretAad } from '../notifications/aad.js';
import { futureDate, jsonObject, providerName, secretText } from '../account-services.validation.js';
import { oneOf, optionalText, requiredText, uniqueConstraintOf } from '../validation.js';
import { CREDENTIAL_TYPES, CredentialEntity } from './credential.entity.js';
import type { CreateAccountCredentialInput, UpdateAccountCredentialInput } from './credential.inputs.js';

export async function listCredentials(ctx: PlatformContext, accountUrlId: string): Promise<CredentialEntity[]> {
  const account = await getAccount(ctx, accountUrlId);
  return ctx.em.find(CredentialEntity, { account: account.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

async function findCredential(ctx: PlatformContext, accountId: string, id: string): Promise<CredentialEntity> {
  const row = await ctx.em.findOne(CredentialEntity, { id, account: accountId });
  if (!row) throw new DomainError('CREDENTIAL_NOT_FOUND', `Credential ${id} not found`, { parameter: 'id' });
  return row;
}

export async function getCredential(ctx: PlatformContext, accountUrlId: string, id: string): Promise<CredentialEntity> {
  const account = await getAccount(ctx, accountUrlId);
  return findCredential(ctx, account.id, id);
}

function nameTaken(e: unknown, name: string): never {
  if (uniqueConstraintOf(e) !== undefined) throw new DomainError('CREDENTIAL_NAME_TAKEN', `A credential named "${name}" already exists in this account`, { parameter: 'name' });
  throw e;
}

export async function createCredential(ctx: PlatformContext, accountUrlId: string, input: CreateAccountCredentialInput): Promise<CredentialEntity> {
  const account = await getAccount(ctx, accountUrlId);
  const name = requiredText(input.name, 'name', 100);
  const fields = {
    name,
    provider: providerName(input.provider),
    credentialType: oneOf(input.credentialType, CREDENTIAL_TYPES, 'credentialType', 'api_key'),
    identifier: optionalText(input.identifier, 'identifier', 500) ?? null,
    metadata: jsonObject(input.metadata, 'metadata') ?? {},
    expiresAt: futureDate(input.expiresAt, 'expiresAt') ?? null,
    extraAttributes: mergeExtraAttributes({}, input.extraAttributes),
  };
  const secret = secretText(input.secret, 'secret');
  try {
    return await withAccountEvents(ctx, async (tx) => {
      const row = tx.em.create(CredentialEntity, {
        ...fields,
        platform: tx.em.getReference(PlatformEntity, account.platform.id),
        account: tx.em.getReference(AccountEntity, account.id),
        secretSealed: '',
        secretLastFour: lastFourOf(secret),
      });
      row.secretSealed = ctx.runtime.secrets.seal(secret, credentialSecretAad(row.id));
      await recordAccountEvent(tx, {
        account,
        event: 'key.created',
        data: { credential_id: row.id, name: row.name, provider: row.provider, credential_type: row.credentialType },
        summary: `${account.name}: credential "${row.name}" (${row.provider}) added`,
      });
      return row;
    });
  } catch (e) {
    return nameTaken(e, name);
  }
}

export async function updateCredential(ctx: PlatformContext, accountUrlId: string, id: string, input: UpdateAccountCredentialInput): Promise<CredentialEntity> {
  const account = await getAccount(ctx, accountUrlId);
  const patch: Partial<CredentialEntity> = {};
  if (input.name != null) patch.name = requiredText(input.name, 'name', 100);
  if (input.provider != null) patch.provider = providerName(input.provider);
  if (input.credentialType != null) patch.credentialType = oneOf(input.credentialType, CREDENTIAL_TYPES, 'credentialType', 'api_key');
  if (input.identifier !== undefined) patch.identifier = optionalText(input.identifier, 'identifier', 500) ?? null;
  if (input.metadata !== undefined) patch.metadata = jsonObject(input.metadata, 'metadata') ?? {};
  if (input.expiresAt !== undefined) patch.expiresAt = futureDate(input.expiresAt, 'expiresAt') ?? null;
  const secret = input.secret != null ? secretText(input.secret, 'secret') : undefined;
  try {
    return await withAccountEvents(ctx, async (tx) => {
      const row = await findCredential(tx, account.id, id);
      tx.em.assign(row, patch);
      if (input.extraAttributes != null) row.extraAttributes = mergeExtraAttributes(row.extraAttributes, input.extraAttributes);
      if (secret !== undefined) {
        row.secretSealed = ctx.runtime.secrets.seal(secret, credentialSecretAad(row.id));
        row.secretLastFour = lastFourOf(secret);
        row.secretUpdatedAt = new Date();
      }
      await recordAccountEvent(tx, {
        account,
        event: 'key.updated',
        data: { credential_id: row.id, name: row.name, provider: row.provider, changed: [...Object.keys(patch).map(snake), ...Object.keys(input.extraAttributes ?? {})], secret_rotated: secret !== undefined },
        summary: `${account.name}: credential "${row.name}" updated${secret !== undefined ? ' (secret rotated)' : ''}`,
      });
      return row;
    });
  } catch (e) {
    return nameTaken(e, patch.name ?? '');
  }
}

export async function deleteCredential(ctx: PlatformContext, accountUrlId: string, id: string): Promise<CredentialEntity> {
  const account = await getAccount(ctx, accountUrlId);
  return withAccountEvents(ctx, async (tx) => {
    const row = await findCredential(tx, account.id, id);
    tx.em.remove(row);
    await recordAccountEvent(tx, {
      account,
      event: 'key.deleted',
      data: { credential_id: row.id, name: row.name, provider: row.provider },
      summary: `${account.name}: credential "${row.name}" (${row.provider}) deleted`,
    });
    return row;
  });
}

function snake(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
