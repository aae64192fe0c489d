// Registered (trusted) operations at the gateway: a key-authenticated request that sends an id
// (extensions.persistedQuery.sha256Hash, or documentId) its app registered is run with the
// registered document (Apollo's document store then skips parsing and validation: it is keyed by
// the document's hash). An app or key set to "registered operations only" is refused anything else:
// REGISTERED_OPERATIONS_ONLY (403) for a document sent, OPERATION_NOT_REGISTERED (403, naming the
// id) for an id the app has not registered. The same holds over HTTP, in process and for every
// graphql-ws subscribe message (subscriptions included). The REST bridge's own calls (fixed
// operations, signed) are not refused. Callers without an API key (platform users' and operators'
// JWTs: the platform's console, not an app's clients) are not subject to an app's setting. Each
// app's registry is read from the platform subgraph once, kept REGISTRY_TTL_MS, and dropped at once
// on every gateway when it changes (platform.operations.changed, through Redis when set). While the
// platform is unreachable an app's registry reads as empty (no setting) and is retried after 5 s:
// requests go on as they do on cached keys. README "Registered operations".
import { OPERATIONS_CHANGED_TOPIC, type OperationsChangedPayload } from '../lib/events.js';
import { CLIENT_ADDRESS_HEADER, verifyClientAddress } from '../lib/client-address.js';
import { GraphQLError } from 'graphql';
import { jsonAnswer, type GraphQLAnswer, type GraphQLCall } from '../lib/http.js';
import type { Logger } from '../lib/logger.js';
import type { PubSub } from '../lib/pubsub.js';
import type { TenantContext } from '../lib/tenant.js';
import type { BeforeOutcome, GatewayExtension, SocketOperation, SocketOutcome } from './hooks.js';
import type { OperationRegistry } from './platform-client.js';

export const REGISTRY_TTL_MS = 30_000;
const UNREACHABLE_RETRY_MS = 5_000;

interface Registry {
  appOnly: boolean;
  keyIds: Set<string>;
  documents: Map<string, string>;
}

const EMPTY: Registry = { appOnly: false, keyIds: new Set(), documents: new Map() };

interface Body {
  query?: unknown;
  documentId?: unknown;
  extensions?: { persistedQuery?: { sha256Hash?: unknown } } & Record<string, unknown>;
  [k: string]: unknown;
}

export interface RegisteredOperations extends GatewayExtension {
  stop(): Promise<void>;
}

export function registeredOperations(deps: { fetchRegistry: (appId: string) => Promise<OperationRegistry>; pubsub: PubSub; internalSecret: string; log: Logger; ttlMs?: number }): RegisteredOperations {
  const ttlMs = deps.ttlMs ?? REGISTRY_TTL_MS;
  /** `known`: the registry once read, so that most requests decide without waiting (no promise) */
  const cache = new Map<string, { expires: number; registry: Promise<Registry>; known?: Registry }>();
  const registryOf = (appId: string): Registry | Promise<Registry> => {
    const hit = cache.get(appId);
    if (hit && hit.expires > Date.now()) return hit.known ?? hit.registry;
    const entry: { expires: number; registry: Promise<Registry>; known?: Registry } = { expires: Date.now() + ttlMs, registry: Promise.resolve(EMPTY) };
    entry.registry = deps.fetchRegistry(appId).then(
      (r) => (entry.known = { appOnly: r.appOnly, keyIds: new Set(r.keyIds), documents: new Map(r.operations.map((o) => [o.id, o.body])) }),
      (e: unknown) => {
        // the platform unreachable: requests go on as without a registry (as cached keys do), retried after UNREACHABLE_RETRY_MS
        deps.log.warn('registered operations unavailable', { err: e, appId });
        entry.expires = Date.now() + UNREACHABLE_RETRY_MS;
        return (entry.known = EMPTY);
      },
    );
    cache.set(appId, entry);
    return entry.registry;
  };

  const events = deps.pubsub.subscribe(OPERATIONS_CHANGED_TOPIC);
  const listening = (async () => {
    for await (const payload of events) cache.delete((payload as OperationsChangedPayload).appId);
  })().catch((e) => deps.log.error('registered operations listener stopped', { err: e }));

  /** What the registry says of a request by this tenant: its document, a refusal, or nothing to do (at once when the app's registry is known). */
  function decide(tenant: TenantContext, mayName: boolean, body: () => Body | undefined): Decision | Promise<Decision> {
    if (tenant.kind !== 'key' || !tenant.appId) return undefined;
    const registry = registryOf(tenant.appId);
    return registry instanceof Promise ? registry.then((r) => decideBy(r, tenant, mayName, body)) : decideBy(registry, tenant, mayName, body);
  }

  function decideBy(registry: Registry, tenant: TenantContext, mayName: boolean, body: () => Body | undefined): Decision {
    const enforcing = enforced(registry, tenant);
    // without the setting, only a request naming an id is looked at: the others are not parsed twice
    if (!enforcing && (registry.documents.size === 0 || !mayName)) return undefined;
    const b = body();
    if (!b) return undefined;
    const id = operationIdOf(b);
    const document = id !== undefined ? registry.documents.get(id) : undefined;
    if (document !== undefined) return { body: b, document };
    if (!enforcing) return undefined;
    return { refused: id !== undefined ? notRegistered(id) : DOCUMENT_REFUSED };
  }

  const outcomeOf = (call: GraphQLCall, d: Decision): BeforeOutcome => {
    if (!d) return undefined;
    if ('document' in d) return { call: withDocument(call, d.body, d.document) };
    return fromBridge(call, deps.internalSecret) ? undefined : { answer: refusalAnswer(d.refused) };
  };

  return {
    beforeExecute(call, tenant) {
      const d = decide(tenant, mayNameId(call), () => bodyOf(call));
      return d instanceof Promise ? d.then((x) => outcomeOf(call, x)) : outcomeOf(call, d);
    },
    async beforeSocketOperation(op: SocketOperation, tenant: TenantContext): Promise<SocketOutcome> {
      const body = (): Body => ({ query: op.query, documentId: op.documentId ?? op.extensions?.documentId, extensions: (op.extensions ?? undefined) as Body['extensions'] });
      const d = await decide(tenant, !op.query || op.extensions != null, body);
      if (!d) return undefined;
      if ('document' in d) return { query: d.document };
      return { refused: new GraphQLError(d.refused.message, { extensions: d.refused.extensions }) };
    },
    async stop() {
      await events.return?.();
      await listening;
    },
  };
}

/** A refusal, as every edge renders it (an HTTP answer's body, a graphql-ws error). */
interface Refusal {
  message: string;
  extensions: { code: 'OPERATION_NOT_REGISTERED' | 'REGISTERED_OPERATIONS_ONLY'; status: 403; meta?: { operationId: string } };
}
type Decision = { body: Body; document: string } | { refused: Refusal } | undefined;

function enforced(r: Registry, tenant: TenantContext): boolean {
  return r.appOnly || (!!tenant.keyId && r.keyIds.has(tenant.keyId));
}

/** The request's body as a value: POST (bytes or an in-process value) or GET's URL parameters; undefined when unreadable (Apollo answers it). */
function bodyOf(call: GraphQLCall): Body | undefined {
  try {
    if (call.parsed !== undefined) return typeof call.parsed === 'object' && call.parsed ? (call.parsed as Body) : undefined;
    if (call.method.toUpperCase() === 'POST') {
      const v: unknown = call.raw?.length ? JSON.parse(call.raw.toString('utf8')) : undefined;
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Body) : undefined;
    }
    const search = new URL(call.url, 'http://x').searchParams;
    const extensions = search.get('extensions');
    return { query: search.get('query') ?? undefined, documentId: search.get('documentId') ?? undefined, extensions: extensions ? (JSON.parse(extensions) as Body['extensions']) : undefined };
  } catch {
    return undefined;
  }
}

/** Cheap test before parsing: could the request carry an operation id? */
function mayNameId(call: GraphQLCall): boolean {
  if (call.parsed !== undefined) return true;
  const text = call.raw ?? call.url;
  return text.includes('persistedQuery') || text.includes('documentId');
}

function operationIdOf(b: Body): string | undefined {
  if (typeof b.query === 'string' && b.query) return undefined;
  const hash = b.extensions?.persistedQuery?.sha256Hash;
  if (typeof hash === 'string') return hash;
  return typeof b.documentId === 'string' ? b.documentId : undefined;
}

/** The same request with the registered document as its query and no persisted-query extension (Apollo would check the hash against it). */
function withDocument(call: GraphQLCall, body: Body, document: string): GraphQLCall {
  const { persistedQuery: _pq, ...extensions } = body.extensions ?? {};
  const { documentId: _id, ...rest } = body;
  const next: Body = { ...rest, query: document, ...(Object.keys(extensions).length ? { extensions } : { extensions: undefined }) };
  if (call.parsed !== undefined) return { ...call, parsed: next };
  // a GET becomes a POST of the same operation: only queries are registered for GET by clients, and Apollo runs a POST's query alike
  return { ...call, method: 'POST', url: call.url.split('?')[0], headers: { ...call.headers, 'content-type': 'application/json' }, raw: Buffer.from(JSON.stringify(next)) };
}

/** The REST bridge's calls: in process (a value it built) or over HTTP with its signed client address. */
function fromBridge(call: GraphQLCall, secret: string): boolean {
  return call.parsed !== undefined || (!!secret && verifyClientAddress(call.headers[CLIENT_ADDRESS_HEADER], secret) !== undefined);
}

function notRegistered(id: string): Refusal {
  const message = `Operation ${id} is not registered for this app, which accepts registered operations only`;
  return { message, extensions: { code: 'OPERATION_NOT_REGISTERED', status: 403, meta: { operationId: id } } };
}

const DOCUMENT_REFUSED: Refusal = {
  message: 'A document was sent, but this app or key accepts registered operations only: send the id of a registered operation (extensions.persistedQuery.sha256Hash or documentId)',
  extensions: { code: 'REGISTERED_OPERATIONS_ONLY', status: 403 },
};

function refusalAnswer(r: Refusal): GraphQLAnswer {
  return jsonAnswer(403, { errors: [r] }, 'graphql (refused)');
}
