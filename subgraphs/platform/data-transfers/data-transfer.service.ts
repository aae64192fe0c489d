// Data transfers, admin side (platform:admin): create one for an account, list them, read one
// and its audit trail. The public side is data-transfer-public.service.ts.
import { mergeExtraAttributes } from '../../../lib/extra-attributes.js';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { recordAccountEvent, withAccountEvents } from '../notifications/account-events.js';
import { jsonObject } from '../account-services.validation.js';
import { fail, intInRange, optionalEmail, optionalText, requiredText } from '../validation.js';
import { DataTransferEntity, TRANSFER_CODE_RE } from './data-transfer.entity.js';
import type { CreateDataTransferInput } from './data-transfer.inputs.js';
import { appendAudit, auditTrail } from './data-transfer.repository.js';

const DAY_MS = 86_400_000;
export const DEFAULT_TRANSFER_DAYS = 14;
export const MAX_TRANSFER_DAYS = 365;

function expiry(input: CreateDataTransferInput): Date {
  if (input.expiresAt != null && input.expiresInDays != null) fail('expiresAt', 'give expires_at or expires_in_days, not both');
  if (input.expiresAt != null) {
    const t = input.expiresAt.getTime();
    if (!(t > Date.now())) fail('expiresAt', 'expires_at must be in the future');
    if (t > Date.now() + MAX_TRANSFER_DAYS * DAY_MS) fail('expiresAt', `expires_at must be within ${MAX_TRANSFER_DAYS} days`);
    return input.expiresAt;
  }
  const days = intInRange(input.expiresInDays, 'expiresInDays', 1, MAX_TRANSFER_DAYS) ?? DEFAULT_TRANSFER_DAYS;
  return new Date(Date.now() + days * DAY_MS);
}

export async function createTransfer(ctx: PlatformContext, accountUrlId: string, input: CreateDataTransferInput): Promise<DataTransferEntity> {
  const account = await getAccount(ctx, accountUrlId);
  const recipientEmail = optionalEmail(input.recipientEmail, 'recipientEmail');
  if (!recipientEmail) fail('recipientEmail', 'recipient_email is required');
  const fields = {
    title: requiredText(input.title, 'title', 200),
    description: optionalText(input.description, 'description', 5000) ?? null,
    recipientEmail,
    recipientName: optionalText(input.recipientName, 'recipientName', 200) ?? null,
    agreement: requiredText(input.agreement, 'agreement', 100_000),
    contents: jsonObject(input.contents, 'contents', 65_536) ?? {},
    expiresAt: expiry(input),
    createdBy: ctx.tenant.userId ?? ctx.tenant.kind,
    extraAttributes: mergeExtraAttributes({}, input.extraAttributes),
  };
  return withAccountEvents(ctx, async (tx) => {
    const t = tx.em.create(DataTransferEntity, {
      ...fields,
      platform: tx.em.getReference(PlatformEntity, account.platform.id),
      account: tx.em.getReference(AccountEntity, account.id),
    });
    appendAudit(tx.em, t, 'created', `admin:${fields.createdBy}`, { title: t.title, recipient_email: t.recipientEmail, expires_at: t.expiresAt.toISOString() });
    await recordAccountEvent(tx, {
      account,
      event: 'data_transfer.created',
      data: { transfer_code: t.code, title: t.title, recipient_email: t.recipientEmail, expires_at: t.expiresAt.toISOString() },
      summary: `${account.name}: data transfer "${t.title}" created for ${t.recipientEmail}`,
    });
    return t;
  });
}

export async function listTransfers(ctx: PlatformContext, accountUrlId: string): Promise<DataTransferEntity[]> {
  const account = await getAccount(ctx, accountUrlId);
  return ctx.em.find(DataTransferEntity, { account: account.id }, { orderBy: { createdAt: 'desc', id: 'desc' } });
}

export async function getTransfer(ctx: PlatformContext, accountUrlId: string, code: string): Promise<DataTransferEntity> {
  const account = await getAccount(ctx, accountUrlId);
  const t = TRANSFER_CODE_RE.test(code) ? await ctx.em.findOne(DataTransferEntity, { code, account: account.id }) : null;
  if (!t) throw new DomainError('DATA_TRANSFER_NOT_FOUND', `Data transfer ${code} not found`, { parameter: 'code' });
  return t;
}

export async function transferAudit(ctx: PlatformContext, accountUrlId: string, code: string) {
  const t = await getTransfer(ctx, accountUrlId, code);
  return auditTrail(ctx.em, t.id);
}
