// The public data-transfer flow (no JWT; the transfer code is the handle):
//   show → request_access (a one-time code goes to the recipient) → verify_access (code → access
//   token) → accept | decline (once, ever) → events (viewed, downloaded…).
// Unknown code → 404, expired → 410. Every step, refusals included, is appended to the audit trail.
// Every step is limited per client address and per code, and unknown codes and wrong access codes
// count as failed guesses of the address (public-limits.ts); a malformed code is answered 404 at once.
import { LockMode } from '@mikro-orm/core';
import { safeEqual } from '../../../lib/crypto.js';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { recordAccountEvent, withAccountEvents } from '../notifications/account-events.js';
import { jsonObject } from '../account-services.validation.js';
import { fail, oneOf, optionalText } from '../validation.js';
import {
  ACCESS_CODE_TTL_MS,
  ACCESS_TOKEN_TTL_MS,
  hashAccessCode,
  MAX_CODE_ATTEMPTS,
  MAX_CODE_REQUESTS_PER_HOUR,
  maskEmail,
  newAccessCode,
  normaliseAccessCode,
  signAccessToken,
  verifyAccessToken,
} from './access.rules.js';
import { DataTransferAccessCodeEntity, DataTransferEntity, TRANSFER_CODE_RE } from './data-transfer.entity.js';
import { appendAudit, codesIssuedSince, consumeCode, countAttempt, decide, findByCode, liveCode, retireCodes } from './data-transfer.repository.js';

export const TRANSFER_EVENT_TYPES = ['viewed', 'downloaded', 'printed', 'shared', 'other'] as const;

/** The transfer behind `code`: 404 when unknown, 410 once expired. */
async function openTransfer(ctx: PlatformContext, code: string): Promise<DataTransferEntity> {
  const notFound = () => new DomainError('DATA_TRANSFER_NOT_FOUND', 'No data transfer has this code', { parameter: 'code' });
  if (!TRANSFER_CODE_RE.test(code)) throw notFound();
  const limits = ctx.runtime.transferLimits;
  await limits.admit(ctx.tenant.clientAddress, code);
  const t = await findByCode(ctx.em, code);
  if (!t) {
    await limits.failedGuess(ctx.tenant.clientAddress);
    throw notFound();
  }
  if (t.expiresAt.getTime() <= Date.now()) throw new DomainError('DATA_TRANSFER_EXPIRED', `This data transfer expired at ${t.expiresAt.toISOString()}`, { parameter: 'code' });
  return t;
}

function notDeclined(t: DataTransferEntity): void {
  if (t.status === 'declined') throw new DomainError('DATA_TRANSFER_ALREADY_DECIDED', 'This data transfer was declined');
}

/** An audit entry committed on its own: refusals are recorded even though the request fails. */
async function audit(ctx: PlatformContext, t: DataTransferEntity, action: string, actor: string, detail: Record<string, unknown> = {}) {
  const em = ctx.em.fork();
  const entry = appendAudit(em, t, action, actor, detail);
  await em.flush();
  return entry;
}

export async function showTransfer(ctx: PlatformContext, code: string): Promise<DataTransferEntity> {
  const t = await openTransfer(ctx, code);
  await audit(ctx, t, 'details_viewed', 'public');
  return t;
}

export async function requestAccess(ctx: PlatformContext, code: string) {
  const t = await openTransfer(ctx, code);
  notDeclined(t);
  const accessCode = newAccessCode();
  const expiresAt = new Date(Date.now() + ACCESS_CODE_TTL_MS);
  await withAccountEvents(ctx, async (tx) => {
    // one request at a time per transfer, so the hourly limit holds under concurrency
    await tx.em.findOneOrFail(DataTransferEntity, { id: t.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, filters: false });
    if ((await codesIssuedSince(tx.em, t.id, new Date(Date.now() - 3_600_000))) >= MAX_CODE_REQUESTS_PER_HOUR) {
      throw new DomainError('RATE_LIMITED', `At most ${MAX_CODE_REQUESTS_PER_HOUR} access codes per hour for one transfer; use the last one sent`);
    }
    await retireCodes(tx.em, t.id);
    tx.em.create(DataTransferAccessCodeEntity, { transfer: tx.em.getReference(DataTransferEntity, t.id), codeHash: hashAccessCode(accessCode), expiresAt });
    appendAudit(tx.em, t, 'access_requested', 'public', { sent_to: maskEmail(t.recipientEmail), access_code_expires_at: expiresAt.toISOString() });
    // No mail here: the code travels as this event to the account's app webhooks (signed), whose
    // owner forwards it to the recipient. The team-chat line leaves the code out.
    await recordAccountEvent(tx, {
      account: t.account,
      event: 'data_transfer.access_requested',
      data: {
        transfer_code: t.code,
        title: t.title,
        recipient_email: t.recipientEmail,
        recipient_name: t.recipientName ?? null,
        access_code_expires_at: expiresAt.toISOString(),
      },
      secretData: { access_code: accessCode },
      summary: `${t.account.name}: access to data transfer "${t.title}" requested; a code was sent for ${maskEmail(t.recipientEmail)}`,
    });
  });
  return { code: t.code, accessCodeExpiresAt: expiresAt, sentTo: maskEmail(t.recipientEmail) };
}

export async function verifyAccess(ctx: PlatformContext, code: string, typed: string) {
  const t = await openTransfer(ctx, code);
  notDeclined(t);
  const normalised = normaliseAccessCode(typed ?? '');
  if (!/^[A-Z0-9]{4}-[A-Z0-9]{4}$/.test(normalised)) fail('accessCode', 'access_code must be the 8-character code sent to the recipient (e.g. K7QP-3MZD)');
  const deny = async (reason: string, extra: Record<string, unknown> = {}): Promise<never> => {
    await audit(ctx, t, 'access_denied', 'public', { reason, ...extra });
    await ctx.runtime.transferLimits.failedGuess(ctx.tenant.clientAddress);
    throw new DomainError('ACCESS_CODE_INVALID', 'The access code is wrong, expired or already used; request a new one if needed', { parameter: 'accessCode' });
  };
  const live = await liveCode(ctx.em, t.id);
  if (!live) return deny('no_valid_code');
  if (!(await countAttempt(ctx.em, live.id, MAX_CODE_ATTEMPTS))) return deny('attempts_exhausted');
  if (!safeEqual(hashAccessCode(normalised), live.codeHash)) return deny('wrong_code', { attempts_left: Math.max(0, MAX_CODE_ATTEMPTS - live.attempts - 1) });
  if (!(await consumeCode(ctx.em, live.id))) return deny('already_used');
  const expiresAt = Date.now() + ACCESS_TOKEN_TTL_MS;
  const accessToken = signAccessToken({ transferId: t.id, codeId: live.id, expiresAt }, ctx.runtime.cfg.internalSecret);
  await audit(ctx, t, 'access_verified', 'recipient', { access_token_expires_at: new Date(expiresAt).toISOString() });
  return { code: t.code, accessToken, expiresAt: new Date(expiresAt) };
}

function requireAccess(ctx: PlatformContext, t: DataTransferEntity, token: string): void {
  const claims = verifyAccessToken(token ?? '', ctx.runtime.cfg.internalSecret);
  if (!claims || claims.transferId !== t.id) {
    throw new DomainError('ACCESS_TOKEN_INVALID', 'Verified access is required: verify the access code first (the token lasts 30 minutes)', { parameter: 'accessToken' });
  }
}

async function decideTransfer(ctx: PlatformContext, code: string, token: string, status: 'accepted' | 'declined', reason: string | null) {
  const t = await openTransfer(ctx, code);
  requireAccess(ctx, t, token);
  await withAccountEvents(ctx, async (tx) => {
    if (!(await decide(tx.em, t.id, status, reason))) {
      throw new DomainError('DATA_TRANSFER_ALREADY_DECIDED', `This data transfer was already ${t.status === 'open' ? 'decided' : t.status}`);
    }
    appendAudit(tx.em, t, status, 'recipient', reason ? { reason } : {});
    await recordAccountEvent(tx, {
      account: t.account,
      event: status === 'accepted' ? 'data_transfer.accepted' : 'data_transfer.declined',
      data: { transfer_code: t.code, title: t.title, recipient_email: t.recipientEmail, ...(reason ? { reason } : {}) },
      summary: `${t.account.name}: data transfer "${t.title}" ${status} by ${maskEmail(t.recipientEmail)}`,
    });
  });
  await ctx.em.refresh(t, { filters: false });
  return t;
}

export function acceptTransfer(ctx: PlatformContext, code: string, token: string) {
  return decideTransfer(ctx, code, token, 'accepted', null);
}

export function declineTransfer(ctx: PlatformContext, code: string, token: string, reason?: string | null) {
  return decideTransfer(ctx, code, token, 'declined', optionalText(reason, 'reason', 2000) ?? null);
}

export async function recordTransferEvent(ctx: PlatformContext, code: string, token: string, eventType: string, detail?: Record<string, unknown> | null) {
  const t = await openTransfer(ctx, code);
  requireAccess(ctx, t, token);
  const type = oneOf(eventType, TRANSFER_EVENT_TYPES, 'eventType', 'other');
  const extra = jsonObject(detail, 'detail', 4096) ?? {};
  notDeclined(t);
  if (type === 'downloaded' && t.status !== 'accepted') throw new DomainError('DATA_TRANSFER_NOT_ACCEPTED', 'Downloads can be recorded only after the agreement is accepted');
  // the validated type is written last: a client's detail never overrides what was checked (issue 12)
  return audit(ctx, t, 'event', 'recipient', { ...extra, event_type: type });
}
