// One service per aggregate; every method takes the request context first.
// Rules (ai.md, Authentication): the caller presents an API key (the tenant) and a user JWT;
// a user may register themself without any scope, registering someone else needs the user
// token's `identities:write` scope; every other AI call needs a registered caller.
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import type { AiContext } from '../context.js';
import { IdentityEntity } from './identity.entity.js';
import { appPartition } from '../../../lib/tenant-entity.js';

export const ADMIN_REGISTRATION_SCOPE = 'identities:write';
const MAX_USER_ID = 255;

/** Idempotent: an already registered user gets the existing identity back (called at every login). */
export async function registerIdentity(ctx: AiContext, userUniqueId: string): Promise<IdentityEntity> {
  const { appId, environment } = await appPartition(ctx);
  const caller = requireUser(ctx);
  validateUserUniqueId(userUniqueId);
  if (caller !== userUniqueId && !(ctx.tenant.userScopes ?? []).includes(ADMIN_REGISTRATION_SCOPE)) {
    throw new DomainError('INSUFFICIENT_SCOPE', `Registering another user requires the scope ${ADMIN_REGISTRATION_SCOPE}`, {
      meta: { required: [ADMIN_REGISTRATION_SCOPE] },
    });
  }
  const existing = await ctx.em.findOne(IdentityEntity, { userUniqueId });
  if (existing) return existing;
  // INSERT ... ON CONFLICT DO NOTHING, then read: of two concurrent registrations one inserts,
  // the other inserts nothing, and both read the same single row.
  const now = new Date();
  await ctx.em
    .createQueryBuilder(IdentityEntity)
    .insert({ id: newId('idn'), appId, environment, userUniqueId, status: 'active', registeredAt: now, createdAt: now })
    .onConflict(['appId', 'environment', 'userUniqueId'])
    .ignore()
    .execute();
  const row = await ctx.em.findOneOrFail(IdentityEntity, { userUniqueId });
  ctx.loaders.identityByUser.prime(userUniqueId, row);
  return row;
}

/** A registered identity of the caller's partition; usr-not-registered otherwise. */
export async function getIdentity(ctx: AiContext, userUniqueId: string): Promise<IdentityEntity> {
  await appPartition(ctx);
  const row = userUniqueId ? await ctx.loaders.identityByUser.load(userUniqueId) : null;
  if (!row) throw notRegistered(userUniqueId);
  return row;
}

/**
 * The calling user's identity, for every AI endpoint other than registration (ai.md rule 1), in
 * this order: an API key (UNAUTHENTICATED), the key's `scope` when given (INSUFFICIENT_SCOPE), a
 * user JWT (UNAUTHENTICATED), a user registered in this app (usr-not-registered).
 */
export async function requireRegisteredUser(ctx: AiContext, scope?: string): Promise<IdentityEntity> {
  await appPartition(ctx);
  if (scope && ctx.tenant.kind !== 'service' && !ctx.tenant.scopes.includes(scope)) {
    throw new DomainError('INSUFFICIENT_SCOPE', `Missing scope: ${scope}`, { meta: { required: [scope] } });
  }
  const userId = requireUser(ctx);
  const row = await ctx.loaders.identityByUser.load(userId);
  if (!row) throw notRegistered(userId);
  return row;
}

function notRegistered(userUniqueId: string): DomainError {
  return new DomainError('usr-not-registered', `User ${userUniqueId} is not registered in this tenant; call POST /identities/${userUniqueId}/register first`, {
    parameter: 'userUniqueId',
  });
}

function validateUserUniqueId(userUniqueId: string): void {
  // Control characters are refused: the id appears in paths and logs.
  if (typeof userUniqueId !== 'string' || !userUniqueId.trim() || userUniqueId.length > MAX_USER_ID || /[\u0000-\u001f\u007f]/.test(userUniqueId)) {
    throw new DomainError('VALIDATION_FAILED', `user_unique_id must be 1 to ${MAX_USER_ID} printable characters`, { parameter: 'userUniqueId' });
  }
}


function requireUser(ctx: AiContext): string {
  const { userId } = ctx.tenant;
  if (!userId) throw new DomainError('UNAUTHENTICATED', 'A user token (Authorization: Bearer <USER_JWT>, with the key in X-Api-Key) is required');
  return userId;
}
