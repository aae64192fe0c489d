// Address, contact and branding of an account: one row per account, created by POST (409 when it
// exists) or by the first PUT (PUT updates what it carries, creating the row when needed).
import { mergeExtraAttributes } from '../../../lib/extra-attributes.js';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { recordAccountEvent, withAccountEvents } from '../notifications/account-events.js';
import { optionalText, uniqueConstraintOf } from '../validation.js';
import { AccountDetailsEntity } from './account-details.entity.js';
import type { AccountDetailsInput } from './account-details.inputs.js';
import { mergeAddress, mergeBranding, mergeContact, website } from './account-details.rules.js';

export async function getDetails(ctx: PlatformContext, accountUrlId: string): Promise<{ account: AccountEntity; details: AccountDetailsEntity | null }> {
  const account = await getAccount(ctx, accountUrlId);
  return { account, details: await ctx.em.findOne(AccountDetailsEntity, { account: account.id }) };
}

/** Validate everything before touching the row, then apply; returns the changed field names. */
function apply(row: AccountDetailsEntity, input: AccountDetailsInput): string[] {
  const changed: string[] = [];
  const next: Partial<AccountDetailsEntity> = {};
  if (input.legalName !== undefined) next.legalName = optionalText(input.legalName, 'legalName', 200) ?? null;
  if (input.taxId !== undefined) next.taxId = optionalText(input.taxId, 'taxId', 64) ?? null;
  if (input.website !== undefined) next.website = website(input.website) ?? null;
  if (input.address !== undefined) next.address = input.address === null ? {} : mergeAddress(row.address ?? {}, input.address);
  if (input.contact !== undefined) next.contact = input.contact === null ? {} : mergeContact(row.contact ?? {}, input.contact);
  if (input.branding !== undefined) next.branding = input.branding === null ? {} : mergeBranding(row.branding ?? {}, input.branding);
  const extra = input.extraAttributes != null ? mergeExtraAttributes(row.extraAttributes, input.extraAttributes) : undefined;
  for (const [k, v] of Object.entries(next)) {
    (row as unknown as Record<string, unknown>)[k] = v;
    changed.push(k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
  }
  if (extra) {
    row.extraAttributes = extra;
    changed.push(...Object.keys(input.extraAttributes ?? {}));
  }
  return changed;
}

async function save(ctx: PlatformContext, accountUrlId: string, input: AccountDetailsInput, mode: 'create' | 'upsert'): Promise<{ accountId: string; row: AccountDetailsEntity }> {
  const account = await getAccount(ctx, accountUrlId);
  try {
    return await withAccountEvents(ctx, async (tx) => {
      let row = await tx.em.findOne(AccountDetailsEntity, { account: account.id });
      if (row && mode === 'create') throw new DomainError('DETAILS_ALREADY_EXIST', `Account ${account.urlId} already has details; update them with PUT`);
      row ??= tx.em.create(AccountDetailsEntity, {
        platform: tx.em.getReference(PlatformEntity, account.platform.id),
        account: tx.em.getReference(AccountEntity, account.id),
      });
      const changed = apply(row, input);
      await recordAccountEvent(tx, {
        account,
        event: 'details.updated',
        data: { changed },
        summary: `${account.name}: account details updated (${changed.join(', ') || 'no changes'})`,
      });
      return { accountId: account.id, row };
    });
  } catch (e) {
    // two first writes racing: the loser's insert hits the one-row-per-account constraint
    if (uniqueConstraintOf(e) !== undefined) throw new DomainError('DETAILS_ALREADY_EXIST', `Account ${account.urlId} already has details; update them with PUT`);
    throw e;
  }
}

export function createDetails(ctx: PlatformContext, accountUrlId: string, input: AccountDetailsInput) {
  return save(ctx, accountUrlId, input, 'create');
}

export function updateDetails(ctx: PlatformContext, accountUrlId: string, input: AccountDetailsInput) {
  return save(ctx, accountUrlId, input, 'upsert');
}
