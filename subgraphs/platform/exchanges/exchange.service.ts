// Message-broker configurations of an account (/accounts/:url_id/exchange). The URL is kept
// without user info; the password is sealed like a credential secret.
import { mergeExtraAttributes } from '../../../lib/extra-attributes.js';
import { lastFourOf } from '../../../lib/crypto.js';
import { DomainError } from '../../../lib/errors.js';
import type { PlatformContext } from '../context.js';
import { getAccount } from '../accounts/account.service.js';
import { AccountEntity } from '../accounts/account.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { recordAccountEvent, withAccountEvents } from '../notifications/account-events.js';
import { exchangeSecretAad } from '../notifications/aad.js';
import { jsonObject, secretText } from '../account-services.validation.js';
import { fail, oneOf, optionalText, requiredText, uniqueConstraintOf } from '../validation.js';
import { BROKER_TYPES, parseBrokerUrl, type BrokerType, type BrokerUrl } from './broker-url.rules.js';
import { ExchangeEntity } from './exchange.entity.js';
import type { CreateAccountExchangeInput, UpdateAccountExchangeInput } from './exchange.inputs.js';

export async function listExchanges(ctx: PlatformContext, accountUrlId: string): Promise<ExchangeEntity[]> {
  const account = await getAccount(ctx, accountUrlId);
  return ctx.em.find(ExchangeEntity, { account: account.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

async function findExchange(ctx: PlatformContext, accountId: string, id: string): Promise<ExchangeEntity> {
  const row = await ctx.em.findOne(ExchangeEntity, { id, account: accountId });
  if (!row) throw new DomainError('EXCHANGE_NOT_FOUND', `Message-broker configuration ${id} not found`, { parameter: 'id' });
  return row;
}

export async function getExchange(ctx: PlatformContext, accountUrlId: string, id: string): Promise<ExchangeEntity> {
  const account = await getAccount(ctx, accountUrlId);
  return findExchange(ctx, account.id, id);
}

function brokerUrl(type: BrokerType, raw: string): BrokerUrl {
  const parsed = parseBrokerUrl(type, requiredText(raw, 'url', 2048));
  if (typeof parsed === 'string') fail('url', parsed);
  return parsed;
}

function nameTaken(e: unknown, name: string): never {
  if (uniqueConstraintOf(e) !== undefined) throw new DomainError('EXCHANGE_NAME_TAKEN', `A broker configuration named "${name}" already exists in this account`, { parameter: 'name' });
  throw e;
}

function sealPassword(ctx: PlatformContext, row: ExchangeEntity, password: string | null): void {
  row.secretSealed = password === null ? null : ctx.runtime.secrets.seal(password, exchangeSecretAad(row.id));
  row.secretLastFour = password === null ? '' : lastFourOf(password);
}

export async function createExchange(ctx: PlatformContext, accountUrlId: string, input: CreateAccountExchangeInput): Promise<ExchangeEntity> {
  const account = await getAccount(ctx, accountUrlId);
  const name = requiredText(input.name, 'name', 100);
  if (input.brokerType == null) fail('brokerType', `broker_type is required (${BROKER_TYPES.join(', ')})`);
  const brokerType = oneOf(input.brokerType, BROKER_TYPES, 'brokerType', 'rabbitmq');
  const url = brokerUrl(brokerType, input.url);
  const username = optionalText(input.username, 'username', 500) ?? url.username ?? null;
  const password = input.password != null ? secretText(input.password, 'password') : (url.password ?? null);
  const options = jsonObject(input.options, 'options') ?? {};
  const extraAttributes = mergeExtraAttributes({}, input.extraAttributes);
  try {
    return await withAccountEvents(ctx, async (tx) => {
      const row = tx.em.create(ExchangeEntity, {
        name,
        brokerType,
        url: url.url,
        username,
        options,
        enabled: input.enabled ?? true,
        extraAttributes,
        platform: tx.em.getReference(PlatformEntity, account.platform.id),
        account: tx.em.getReference(AccountEntity, account.id),
      });
      sealPassword(ctx, row, password);
      await recordAccountEvent(tx, {
        account,
        event: 'exchange.created',
        data: { exchange_id: row.id, name: row.name, broker_type: row.brokerType, url: row.url },
        summary: `${account.name}: ${row.brokerType} broker "${row.name}" configured`,
      });
      return row;
    });
  } catch (e) {
    return nameTaken(e, name);
  }
}

export async function updateExchange(ctx: PlatformContext, accountUrlId: string, id: string, input: UpdateAccountExchangeInput): Promise<ExchangeEntity> {
  const account = await getAccount(ctx, accountUrlId);
  const name = input.name != null ? requiredText(input.name, 'name', 100) : undefined;
  const brokerType = input.brokerType != null ? oneOf(input.brokerType, BROKER_TYPES, 'brokerType', 'rabbitmq') : undefined;
  const options = input.options !== undefined ? (jsonObject(input.options, 'options') ?? {}) : undefined;
  const password = input.password === null ? null : input.password !== undefined ? secretText(input.password, 'password') : undefined;
  try {
    return await withAccountEvents(ctx, async (tx) => {
      const row = await findExchange(tx, account.id, id);
      const changed: string[] = [];
      const set = <K extends keyof ExchangeEntity>(field: K, value: ExchangeEntity[K], label: string) => {
        row[field] = value;
        changed.push(label);
      };
      if (name !== undefined) set('name', name, 'name');
      if (brokerType !== undefined) set('brokerType', brokerType, 'broker_type');
      if (input.url != null || brokerType !== undefined) {
        // a new type re-checks the stored URL against the new type's schemes
        const url = brokerUrl(row.brokerType, input.url ?? row.url);
        set('url', url.url, 'url');
        if (url.username && input.username === undefined) row.username = url.username;
        if (url.password && password === undefined) sealPassword(ctx, row, url.password);
      }
      if (input.username !== undefined) set('username', optionalText(input.username, 'username', 500) ?? null, 'username');
      if (password !== undefined) {
        sealPassword(ctx, row, password);
        changed.push('password');
      }
      if (options !== undefined) set('options', options, 'options');
      if (input.enabled != null) set('enabled', input.enabled, 'enabled');
      if (input.extraAttributes != null) {
        row.extraAttributes = mergeExtraAttributes(row.extraAttributes, input.extraAttributes);
        changed.push(...Object.keys(input.extraAttributes));
      }
      await recordAccountEvent(tx, {
        account,
        event: 'exchange.updated',
        data: { exchange_id: row.id, name: row.name, broker_type: row.brokerType, changed },
        summary: `${account.name}: broker "${row.name}" updated`,
      });
      return row;
    });
  } catch (e) {
    return nameTaken(e, name ?? '');
  }
}

export async function deleteExchange(ctx: PlatformContext, accountUrlId: string, id: string): Promise<ExchangeEntity> {
  const account = await getAccount(ctx, accountUrlId);
  return withAccountEvents(ctx, async (tx) => {
    const row = await findExchange(tx, account.id, id);
    tx.em.remove(row);
    await recordAccountEvent(tx, {
      account,
      event: 'exchange.deleted',
      data: { exchange_id: row.id, name: row.name, broker_type: row.brokerType },
      summary: `${account.name}: broker "${row.name}" removed`,
    });
    return row;
  });
}
