// The subgraph kernel: build a Federation 2 schema from type-graphql classes, and serve it over
// node:http with a per-request context (verified tenant, EntityManager fork with the tenant filter
// set, DataLoaders, logger, pub/sub). Each subgraph's index.ts is a SubgraphDefinition.
import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { GraphQLScalarType, parse, type GraphQLSchema } from 'graphql';
import { buildSubgraphSchema, printSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { buildSchema, createResolversMap, getMetadataStorage, type NonEmptyArray } from 'type-graphql';
import type { EntityManager, MikroORM, Options } from '@mikro-orm/postgresql';
import type { Migration } from '@mikro-orm/migrations';
import { ConfigError, type Config, type SubgraphName } from './config.js';
import { DomainError, toGraphQLError, useErrorCodes, type ErrorDef } from './errors.js';
import type { ContractLimits, SubgraphSubscriptions } from './contract.js';
import type { EventTypes } from './events.js';
import { createErrorFormatter } from './graphql-errors.js';
import { errorAnswer, GraphQLExecutor, type ExecutorAnswer } from './graphql-executor.js';
import { closeServer, graphqlOperationLabel, handleSubgraphGraphQL, listen, MiB, pathOf, sendJson } from './http.js';
import type { LocalHandler, LocalRoutes } from './local-transport.js';
import { METRICS_PATH, observeLocalRequest, sendMetrics, trackPool, type PoolStats } from './metrics.js';
import { instrument, startTracing } from './telemetry.js';
import type { Logger } from './logger.js';
import type { PubSub } from './pubsub.js';
import { isOperator, OPERATOR, SECRET_KEY, TENANT_HEADER, verifyTenantContext, type TenantContext } from './tenant.js';
import { createOrm, migrate, pendingMigrations } from './db.js';
import { DRAINING, isDraining, remainingMs } from './lifecycle.js';
import { countersComponent } from './redis-fallback.js';
import { plainParamResolvers } from './resolver-params.js';
import { guardedFields } from './field-access.js';
import { VERSION } from './version.js';
import type { ProcessShared } from './process-shared.js';

export const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@shareable", "@external", "@requires", "@inaccessible", "@cost", "@listSize"])';

export interface SubgraphContext<L = unknown, R = unknown> {
  tenant: TenantContext;
  em: EntityManager;
  log: Logger;
  pubsub: PubSub;
  loaders: L;
  requestId: string;
  /** the subgraph's process-level services (SubgraphDefinition.runtime); undefined when it has none */
  runtime: R;
}

type ReferenceResolvers = Record<string, { __resolveReference: (ref: any, ctx: any, info: any) => unknown }>;

export interface SubgraphDefinition<L = unknown, R = unknown> {
  name: SubgraphName;
  /** PostgreSQL schema owned by this subgraph */
  dbSchema: string;
  // type-graphql takes resolver and type classes as bare constructors
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers: NonEmptyArray<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  orphanedTypes?: Function[];
  referenceResolvers?: ReferenceResolvers;
  entities: Options['entities'];
  migrations: { name: string; class: new (...args: any[]) => Migration }[];
  /** ORM filters besides `tenant`, which createOrm derives from the entities' @TenantScoped declarations */
  filters?: Options['filters'];
  // The contract (lib/contract.ts): `npm run compose` writes these four to schema/contract.json, which
  // the gateway and the REST bridge read at start instead of importing the subgraph.
  /** The codes this subgraph throws (its error-codes.ts): owned here, rendered by the edges */
  errorCodes?: Readonly<Record<string, ErrorDef>>;
  /** The event types this subgraph publishes (its event-types.ts) */
  eventTypes?: readonly EventTypes<string>[];
  /** The gateway's Subscription root fields over this subgraph's events (SDL, scope, topic, entity) */
  subscriptions?: SubgraphSubscriptions;
  /** The limits the edges check before calling this subgraph (page sizes, uploads) */
  limits?: ContractLimits;
  /** Tenant scoping in one place: set the request's TenantScope (lib/tenant-entity.ts) on its EntityManager. */
  scope(em: EntityManager, tenant: TenantContext): void;
  createLoaders(ctx: Omit<SubgraphContext<L, R>, 'loaders'>): L;
  /**
   * The process-level services the subgraph's requests and workers use (connection pools, in-memory
   * caches, limiters), built once at start and passed explicitly: to every request as `ctx.runtime`,
   * to the workers as `deps.runtime`. Built before the workers, closed after them.
   */
  runtime?(deps: WorkerDeps): Promise<SubgraphRuntime<R>>;
  /**
   * Background work hosted by the subgraph's process (process-wide runtimes, outbox workers, periodic
   * jobs). Started in order before the server listens, so the first request finds them running and
   * a start-up failure (a bad MASTER_KEY) stops the process before it serves anything; on shutdown
   * stopped in reverse order while the server drains, and before the runtime and the ORM close, so
   * a worker started later may still use one started earlier while it stops. Not started with
   * WORKERS=0 (API-only replicas).
   */
  workers?(deps: WorkerDeps & { runtime: R }): Worker[] | Promise<Worker[]>;
  /** Extra readiness facts of the process (e.g. which models are loaded), shown under `details` in /health/ready. */
  health?(runtime: R): Promise<Record<string, unknown>>;
  /**
   * HTTP routes of the subgraph's port besides /graphql, for the subgraph's own processes (e.g.
   * search nodes forwarding to each other): path → handler, given the same signed-header check
   * /graphql uses (`context` rejects a request the gateway or a sibling process did not sign).
   */
  routes?(runtime: R): Record<string, SubgraphRoute>;
}

/** An internal route (SubgraphDefinition.routes); `context` verifies the tenant header against the body. */
export type SubgraphRoute = (req: IncomingMessage, res: ServerResponse, context: (raw: Buffer | string) => Promise<SubgraphContext>) => Promise<void>;

export interface SubgraphRuntime<R> {
  value: R;
  stop(): Promise<void>;
}

export interface WorkerDeps {
  cfg: Config;
  orm: MikroORM;
  pubsub: PubSub;
  log: Logger;
  /** what the process's subgraphs share when they run together (lib/process-shared.ts); absent alone */
  shared?: ProcessShared;
}

export interface Worker {
  /** `deadline`: the process's shutdown bound (epoch ms), when it has one */
  stop(deadline?: number): Promise<void>;
}


/** What @Authorized checks, for a service that decides the scope from its input (throws DomainError). */
export function requireRoles(t: TenantContext, roles: readonly string[]): true {
  // Thrown as DomainError (not GraphQLError) so the formatter renders it: subgraph responses stay
  // HTTP 200 with the code in `extensions`, which is what the gateway expects from a subgraph.
  if (t.kind === 'anonymous') throw new DomainError('UNAUTHENTICATED');
  if (t.kind === 'service') return true;
  if (roles.includes(OPERATOR) && !isOperator(t)) {
    throw new DomainError('INSUFFICIENT_SCOPE', 'Only platform operators can read this: an API key cannot', { meta: { required: [OPERATOR] } });
  }
  if (roles.includes(SECRET_KEY) && t.kind === 'key' && t.keyType === 'publishable') {
    throw new DomainError('INSUFFICIENT_SCOPE', 'A secret key is required: publishable keys cannot read this', { meta: { required: [SECRET_KEY] } });
  }
  const missing = roles.filter((r) => r !== SECRET_KEY && r !== OPERATOR && !t.scopes.includes(r));
  if (missing.length > 0) {
    throw new DomainError('INSUFFICIENT_SCOPE', `Missing scope: ${missing.join(' ')}`, { meta: { required: missing } });
  }
  return true;
};

export async function buildFederatedSchema(def: SubgraphDefinition<any, any>): Promise<GraphQLSchema> {
  const tg = await buildSchema({
    resolvers: def.resolvers,
    orphanedTypes: def.orphanedTypes,
    // @Authorized scopes are checked by guardRoles below, synchronously. type-graphql refuses
    // @Authorized without an authChecker (undefined) but adds no middleware for a null one.
    authChecker: null as unknown as undefined,
    validate: false,
    skipCheck: true,
  });
  const resolvers: any = guardRoles(tg, plainParamResolvers(leanResolvers(createResolversMap(tg)), def.resolvers), def.resolvers);
  for (const [typeName, fns] of Object.entries(def.referenceResolvers ?? {})) resolvers[typeName] = { ...(resolvers[typeName] ?? {}), ...fns };
  return buildSubgraphSchema({ typeDefs: parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(tg)}`), resolvers });
}

/**
 * type-graphql gives every plain field (no roles, no middleware, no @FieldResolver) a wrapper that
 * reads `root[name]`: per resolved field a closure call and a middleware dispatch, ~6,000 of them for
 * a page of 100 products with includes. graphql-js's default resolver reads the same property, so
 * such fields are left without a resolver. The metadata is process-wide (several subgraphs in one
 * process may name a type alike), so a field is dropped only when every declaration of that type
 * name agrees that it is plain.
 */
function leanResolvers(map: Record<string, any>): Record<string, any> {
  const meta = getMetadataStorage();
  const withResolver = new Set(meta.fieldResolvers.map((r) => `${r.getObjectType?.()?.name}.${r.methodName}`));
  const plain = new Map<string, boolean>();
  for (const t of meta.objectTypes) {
    const targets = new Set(meta.objectTypes.filter((o) => o.name === t.name).map((o) => o.target.name));
    for (const f of t.fields ?? []) {
      const key = `${t.name}.${f.schemaName}`;
      const isPlain =
        f.schemaName === f.name && !f.roles && !(f.middlewares?.length) && ![...targets].some((c) => withResolver.has(`${c}.${f.name}`));
      plain.set(key, (plain.get(key) ?? true) && isPlain);
    }
  }
  for (const [typeName, fields] of Object.entries(map)) {
    if (!fields || typeof fields !== 'object' || fields instanceof GraphQLScalarType || typeName === 'Query' || typeName === 'Mutation' || typeName === 'Subscription') continue;
    for (const name of Object.keys(fields)) if (plain.get(`${typeName}.${name}`) === true) delete fields[name];
  }
  return map;
}

/**
 * Scopes are checked here, once: @Authorized('products:write') on a resolver or field resolver. The
 * check (requireRoles) is synchronous, so it runs before the resolver in a plain wrapper; through
 * type-graphql's authChecker every guarded field cost an async middleware chain (three awaited
 * promises per field and object: `bundleAvailable` on each product of a page), and a list's objects
 * then went through graphql-js's promise path. Roles are read from type-graphql's metadata for this
 * subgraph's resolver classes; a role that would guard nothing stops the build instead of being ignored.
 */
function guardRoles(schema: GraphQLSchema, map: Record<string, any>, classes: readonly unknown[]): Record<string, any> {
  const meta = getMetadataStorage();
  const guarded = new Set<string>();
  for (const { type, field, roles } of guardedFields(classes)) {
    const resolve = map[type]?.[field];
    if (typeof resolve !== 'function') throw new Error(`@Authorized on ${type}.${field}: no resolver to guard`);
    map[type]![field] = (root: unknown, args: unknown, ctx: SubgraphContext, info: unknown) => {
      requireRoles(ctx.tenant, roles);
      return resolve(root, args, ctx, info);
    };
    guarded.add(`${type}.${field}`);
  }
  for (const t of meta.objectTypes) {
    for (const f of t.fields ?? []) {
      if (f.roles && hasField(schema, t.name, f.schemaName) && !guarded.has(`${t.name}.${f.schemaName}`)) throw new Error(`@Authorized on the plain field ${t.name}.${f.schemaName} is not supported: use a @FieldResolver`);
    }
  }
  return map;
}

function hasField(schema: GraphQLSchema, type: string, field: string): boolean {
  const t = schema.getType(type);
  return !!t && 'getFields' in t && field in t.getFields();
}

export async function subgraphSdl(def: SubgraphDefinition<any, any>): Promise<string> {
  return printSubgraphSchema(await buildFederatedSchema(def));
}

export interface RunningSubgraph {
  name: SubgraphName;
  url: string;
  port: number;
  orm: MikroORM;
  server: Server;
  /** stop accepting and finish the HTTP requests in flight (in-process calls are still served) */
  drain(deadline: number): Promise<void>;
  /** drain, then stop the workers, the runtime and the pool, all before `deadline` */
  stop(deadline?: number): Promise<void>;
}

/**
 * Apply the subgraph's migrations (MIGRATE_ON_START=1, npm start's default), or refuse to start when
 * some are pending: replicas of a deployment run on the schema `npm run migrate` applied.
 */
async function migrateOrCheck(orm: MikroORM, def: SubgraphDefinition<any, any>, cfg: Config, log: Logger): Promise<void> {
  if (cfg.migrateOnStart ?? false) {
    const applied = await migrate(orm, def.dbSchema, cfg.databaseDirectUrl);
    if (applied.length) log.info('migrations applied', { applied });
    return;
  }
  const pending = await pendingMigrations(orm, def.dbSchema);
  if (pending.length) {
    throw new ConfigError('MIGRATE_ON_START', `the ${def.name} schema has ${pending.length} migration(s) pending (${pending.join(', ')}): run \`npm run migrate\` (ROLE=migrate) first, or set MIGRATE_ON_START=1`);
  }
}

export async function startSubgraph(
  def: SubgraphDefinition<any, any>,
  /** `local`: also serve in process (one-process stack), for the gateway's fetches (lib/local-transport.ts) */
  opts: { cfg: Config; log: Logger; pubsub: PubSub; dbUrl: string; port?: number; local?: LocalRoutes; shared?: ProcessShared },
): Promise<RunningSubgraph> {
  const { cfg, pubsub } = opts;
  const log = opts.log.child({ subgraph: def.name });
  if (def.errorCodes) useErrorCodes(def.name, def.errorCodes);
  const orm = await createOrm({ url: opts.dbUrl, schema: def.dbSchema, entities: def.entities, migrations: def.migrations, filters: def.filters });
  try {
    await migrateOrCheck(orm, def, cfg, log);
  } catch (e) {
    await orm.close();
    throw e;
  }
  const untrackPool = trackPool(def.name, (await orm.em.getConnection().getNativeClient()) as unknown as PoolStats);
  const tracing = await startTracing(cfg, def.name, log);
  const schema = await buildFederatedSchema(def);
  const executor = new GraphQLExecutor(schema, createErrorFormatter(log));
  const runtime = await def.runtime?.({ cfg, orm, pubsub, log, shared: opts.shared });
  let workers: Worker[];
  try {
    workers = cfg.workers ? ((await def.workers?.({ cfg, orm, pubsub, log, shared: opts.shared, runtime: runtime?.value })) ?? []) : [];
  } catch (e) {
    await runtime?.stop();
    throw e;
  }

  const context = async (headers: Record<string, string | string[] | undefined>, raw: Buffer | string): Promise<SubgraphContext> => {
    const v = verifyTenantContext(headerValue(headers[TENANT_HEADER]), cfg.internalSecret, { audience: def.name, body: raw });
    // a caller who found a subgraph's port is told where the API is
    if (!v.ok) throw toGraphQLError(new DomainError('UNAUTHENTICATED', `Subgraphs accept only requests signed by the gateway (${v.reason}): send GraphQL to the gateway, ${cfg.gatewayUrl}`));
    const em = orm.em.fork();
    def.scope(em, v.ctx);
    const requestId = v.ctx.requestId || randomUUID();
    const base = { tenant: v.ctx, em, log: log.child({ requestId }), pubsub, requestId, runtime: runtime?.value };
    return { ...base, loaders: def.createLoaders(base) };
  };

  // The in-process twin of POST /graphql: the same body limit, parse, context and executor. A request
  // the gateway handed over as a value (`parsed`: built from a request its own edge bounded and
  // parsed) is run as it is, its signature bound to the empty body (gateway/data-source.ts).
  const serveLocal: LocalHandler = async (headers, text, parsed) => {
    const started = performance.now();
    let answer: ExecutorAnswer;
    let body: unknown = parsed;
    try {
      if (parsed !== undefined) answer = await executor.run(parsed, () => context(headers, ''));
      else ({ answer, body } = await executor.runText(text, () => context(headers, text), MiB));
    } catch (e) {
      log.error('request failed', { err: e });
      answer = errorAnswer(500, 'INTERNAL', 'Internal server error');
    }
    observeLocalRequest(def.name, graphqlOperationLabel(body, undefined), answer.status, performance.now() - started);
    return answer;
  };

  const server = createServer((req, res) => {
    const path = pathOf(req);
    if (path === METRICS_PATH) return void sendMetrics(req, res, cfg.metricsToken).catch((e) => log.error('metrics failed', { err: e }));
    instrument(def.name, tracing, req, res, () => serve(req, res, path));
  });
  const routes = def.routes?.(runtime?.value) ?? {};
  const serve = (req: IncomingMessage, res: ServerResponse, path: string): void => {
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (route && req.method === 'POST') {
      route(req, res, (raw) => context(req.headers, raw)).catch((e) => {
        log.error('request failed', { err: e, path });
        if (!res.headersSent) sendJson(res, 500, { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL', status: 500 } }] });
      });
      return;
    }
    if (path === '/graphql') {
      handleSubgraphGraphQL(executor, req, res, (raw) => context(req.headers, raw)).catch((e) => {
        log.error('request failed', { err: e });
        if (!res.headersSent) sendJson(res, 500, { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL', status: 500 } }] });
      });
      return;
    }
    if (path === '/health') return sendJson(res, 200, { status: 'ok', service: def.name, version: VERSION, timestamp: new Date().toISOString() });
    if (path === '/health/ready') {
      // the process itself: its pool reaches the database, its warm-up (details); never other services
      if (isDraining() || drainStarted) return sendJson(res, 503, { ...DRAINING, service: def.name });
      orm.em
        .getConnection()
        .execute('select 1')
        .then(async () => {
          const details = def.health ? await def.health(runtime?.value).catch((e: Error) => ({ error: e.message })) : undefined;
          const counting = countersComponent();
          sendJson(res, 200, { status: counting?.status ?? 'ok', service: def.name, database: 'ok', ...(counting ? { counters: counting.counters } : {}), ...(details ? { details } : {}) });
        })
        .catch((e) => sendJson(res, 503, { status: 'unavailable', service: def.name, database: String((e as Error).message) }));
      return;
    }
    sendJson(res, 404, { errors: [{ message: 'Not found', extensions: { code: 'ROUTE_NOT_FOUND', status: 404 } }] });
  };
  server.keepAliveTimeout = 65_000;
  const variable = `${def.name.toUpperCase()}_PORT`;
  const stopWorkers = async (deadline?: number) => {
    for (const w of [...workers].reverse()) await w.stop(deadline);
  };
  let port: number;
  try {
    port = await listen(server, opts.port ?? cfg.subgraphPorts[def.name], cfg.host, variable);
  } catch (e) {
    await stopWorkers(); // a port in use must not leave timers running
    await runtime?.stop();
    await orm.close();
    throw e;
  }
  const url = `http://${cfg.host}:${port}/graphql`;
  // under the URL the gateway is configured with too (cfg.host may be a wildcard address)
  const configured = cfg.subgraphUrls[def.name];
  const unregister = [url, ...(configured && configured !== url && new URL(configured).port === String(port) ? [configured] : [])].map((u) => opts.local?.register(u, serveLocal));
  const unregisterLocal = () => unregister.forEach((f) => f?.());
  log.info('subgraph listening', { url, workers: cfg.workers ? workers.length : 'off (WORKERS=0)' });
  let drainStarted = false;
  let drained: Promise<void> | undefined;
  const drain = (deadline: number) => {
    drainStarted = true;
    return (drained ??= closeServer(server, remainingMs(deadline)));
  };
  return {
    name: def.name,
    url,
    port,
    orm,
    server,
    drain,
    async stop(deadline = Date.now() + cfg.shutdownGraceMs) {
      // the background workers finish their jobs while the server finishes its requests
      await Promise.all([drain(deadline), stopWorkers(deadline)]);
      unregisterLocal();
      await runtime?.stop();
      untrackPool();
      await orm.close();
      await tracing?.shutdown().catch(() => undefined);
    },
  };
}

export { VERSION };

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
