// Endpoint registration for any subgraph: a tenant-scoped list of (URL, events, sealed secret).
// The subgraph passes its owner key, its event names and its error codes; everything else (URL
// guard, event and secret checks, sealing, the per-owner cap, 404 for another owner's id) is here.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '../crypto.js';
import { DomainError, type ErrorCode } from '../errors.js';
import { checkFetchTarget, NetGuardError } from '../net-guard.js';
import { checkEventPattern } from './events.js';
import { endpointSecretAad, WebhookEndpointEntity } from './webhook.entities.js';

export interface EndpointRules {
  /** the event names the subgraph emits */
  events: readonly string[];
  /** accept '*' and 'family.*' besides names */
  patterns?: boolean;
  /** the code of a refused URL, with parameter `url` (search: invalid_webhook_url) */
  urlError: ErrorCode;
  /** the code of an unknown (or another owner's) endpoint id */
  notFound: ErrorCode;
  /** the parameter naming the endpoint in errors, in GraphQL terms (default webhookId: a REST client reads webhook_id, its path parameter) */
  idParameter?: string;
  /** active endpoints per owner (default 20) */
  maxEndpoints?: number;
}

export interface EndpointDeps {
  em: EntityManager;
  secrets: SecretBox;
  /** ALLOW_PRIVATE_NETWORK_FETCH */
  allowPrivate: boolean;
}

export interface EndpointInput {
  url: unknown;
  events: unknown;
  secret: unknown;
}

const MAX_URL = 2048;
const MAX_SECRET = 4096;

/**
 * A URL a webhook may be registered with: http(s), no credentials, at most 2048 characters, a public
 * destination (every address it resolves to). With private fetches allowed (development, tests) the
 * destination is not resolved here; every delivery is checked again at connect time anyway.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean, code: ErrorCode, parameter = 'url'): Promise<URL> {
  const refuse = (message: string) => new DomainError(code, message, { parameter });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(`\`${raw.slice(0, 200)}\` is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(`Webhook URLs must use http or https (got ${url.protocol}).`);
  if (url.username || url.password) throw refuse('Webhook URLs must not carry credentials.');
  if (raw.length > MAX_URL) throw refuse(`Webhook URLs are limited to ${MAX_URL} characters.`);
  if (allowPrivate) return url;
  try {
    await checkFetchTarget(raw, { allowPrivate });
  } catch (e) {
    if (e instanceof NetGuardError && /unresolvable/.test(e.reason)) throw refuse(`The host of ${url.origin} does not resolve.`);
    if (e instanceof NetGuardError) throw refuse(`${url.origin} points at a ${e.reason} address; webhooks must reach a public address.`);
    throw e;
  }
  return url;
}

/** The distinct event names/patterns of `events`, or VALIDATION_FAILED naming the offending entry. */
export function checkEvents(events: unknown, rules: EndpointRules): string[] {
  const list = rules.events.join(', ');
  if (!Array.isArray(events) || events.length === 0) throw new DomainError('VALIDATION_FAILED', `events must be a non-empty array of ${list}`, { parameter: 'events' });
  if (events.length > 50) throw new DomainError('VALIDATION_FAILED', 'events holds at most 50 entries', { parameter: 'events' });
  events.forEach((e, i) => {
    const problem = typeof e === 'string' ? checkEventPattern(e, rules.events, rules.patterns ?? false) : `events[${i}] must be a string`;
    if (problem) throw new DomainError('VALIDATION_FAILED', `events[${i}]: ${problem}`, { parameter: `events[${i}]` });
  });
  return [...new Set(events as string[])];
}

/** Validate and store (flush) an endpoint of `owner`, its secret sealed. */
export async function registerEndpoint(deps: EndpointDeps, owner: string, input: EndpointInput, rules: EndpointRules): Promise<WebhookEndpointEntity> {
  if (typeof input.url !== 'string' || !input.url) throw new DomainError('VALIDATION_FAILED', 'url is required', { parameter: 'url' });
  const events = checkEvents(input.events, rules);
  // The documents put no bound on the secret: only what cannot sign (empty) is refused, and a size cap
  // keeps the sealed column small. Strength is the client's call (docs/ai.md recommends 32 random bytes).
  if (typeof input.secret !== 'string' || input.secret.length === 0 || input.secret.length > MAX_SECRET) {
    throw new DomainError('VALIDATION_FAILED', `secret must be a non-empty string of at most ${MAX_SECRET} characters (it signs every delivery)`, { parameter: 'secret' });
  }
  const url = await checkWebhookUrl(input.url, deps.allowPrivate, rules.urlError);
  const cap = rules.maxEndpoints ?? 20;
  if ((await deps.em.count(WebhookEndpointEntity, { owner, active: true })) >= cap) {
    throw new DomainError('VALIDATION_FAILED', `At most ${cap} active webhooks are allowed`, { parameter: 'url' });
  }
  const endpoint = deps.em.create(WebhookEndpointEntity, { owner, url: url.toString(), events, secretSealed: '' });
  endpoint.secretSealed = deps.secrets.seal(input.secret, endpointSecretAad(endpoint.id));
  await deps.em.flush();
  return endpoint;
}

/** Active endpoints of `owner`, oldest first. */
export function listEndpoints(em: EntityManager, owner: string): Promise<WebhookEndpointEntity[]> {
  return em.find(WebhookEndpointEntity, { owner, active: true }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** An active endpoint of `owner`; `rules.notFound` for anything else (another owner's id included). */
export async function getEndpoint(em: EntityManager, owner: string, id: unknown, rules: Pick<EndpointRules, 'notFound' | 'idParameter'>): Promise<WebhookEndpointEntity> {
  const hook = typeof id === 'string' && /^whk_[A-Za-z0-9]{1,28}$/.test(id) ? await em.findOne(WebhookEndpointEntity, { id, owner, active: true }) : null;
  if (!hook) throw new DomainError(rules.notFound, `Webhook \`${String(id).slice(0, 64)}\` not found.`, { parameter: rules.idParameter ?? 'webhookId' });
  return hook;
}

/** Deactivate: no new deliveries; queued ones are still sent; the delivery log stays readable. */
export async function deactivateEndpoint(em: EntityManager, owner: string, id: unknown, rules: Pick<EndpointRules, 'notFound' | 'idParameter'>): Promise<WebhookEndpointEntity> {
  const hook = await getEndpoint(em, owner, id, rules);
  hook.active = false;
  await em.flush();
  return hook;
}
