import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Logger } from '../log';
import { createPrivateFile, makePrivateFolder } from '../private-files';
import type { Tables } from './schema';
import { type SqliteConnection, WaitingSqliteDialect } from './sqlite-driver';

export type Dialect = 'sqlite' | 'postgres';

export type OpenDatabase =
  | { db: Kysely<Tables>; dialect: 'sqlite'; sqlite: SqliteConnection }
  /**
   * `url` is for the connections that live outside the pool (the change listener); `prepare(sql)` has each of the
   * pool's connections send that statement as a named one from then on (`preparingPool`).
   */
  | { db: Kysely<Tables>; dialect: 'postgres'; url: string; prepare(sql: string): void };

/**
 * Opens the SQLite file named by a `file:` URL, creating it (0600) and its folder (0700) the first time: SQLite
 * gives its WAL and shared-memory files the database's mode. WAL mode, full fsync on commit. Once open,
 * a statement that finds the file locked fails at once, and the dialect waits for it without blocking
 * (sqlite-driver.ts); only the opening itself waits in SQLite's own busy handler.
 */
export function openSqlite(databaseUrl: string): Extract<OpenDatabase, { dialect: 'sqlite' }> {
  const path = resolve(databaseUrl.slice('file:'.length));
  makePrivateFolder(dirname(path));
  try {
    createPrivateFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const database = new SQLite(path);
  database.pragma('busy_timeout = 5000');
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 0');
  const connection = withStatementCache(database);
  return {
    db: new Kysely<Tables>({ dialect: new WaitingSqliteDialect(connection) }),
    dialect: 'sqlite',
    sqlite: connection,
  };
}

const maxCachedStatements = 256;

/**
 * Kysely prepares every query anew, and preparing costs more than running our small queries, so the
 * prepared statements are kept by their SQL text (a bounded set: our queries and Better Auth's).
 */
function withStatementCache(database: SQLite.Database): SqliteConnection {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    get inTransaction() {
      return database.inTransaction;
    },
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= maxCachedStatements) statements.clear();
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

const int8Oid = 20;

/**
 * Our bigints (millisecond timestamps, counts) fit a double exactly, so int8 is read as a number. Set on
 * each connection, not on the global `pg.types`, so that nothing else in the process is affected.
 */
export const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === int8Oid && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Connections per server; N servers need N x (poolSize + 2) connections (one each listens for changes, one holds the
 * database as in use: db/in-use.ts).
 */
export const poolSize = 10;

/** How long a request waits for one of the pool's connections before it is answered 503 `server/busy`. */
export const poolWaitMs = 10_000;

/**
 * Whether `error` is the pool's own, thrown when every connection stayed taken past `poolWaitMs` (pg-pool says so
 * in its message alone): the database is busy, not broken, and the request may be tried again.
 */
export function isPoolExhausted(error: unknown): boolean {
  return error instanceof Error && error.message === 'timeout exceeded when trying to connect';
}

/** Opens a pool on a `postgres://` URL; `search_path` and the like ride in the URL (`?options=-c ...`). */
export function openPostgres(databaseUrl: string, log: Logger): OpenDatabase {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: poolWaitMs,
    keepAlive: true,
    types: pgTypes,
  });
  // A restart of the database ends idle connections with an error; without a handler that would end the process.
  pool.on('error', (error) => log.warn({ err: error }, 'postgres pool connection lost'));
  // No JIT compilation: it pays for statements that run for seconds, and the shop's run for milliseconds, where
  // compiling took 60 to 185 ms of a report's query (docs/decisions/0066-reports-at-size.md). Sent first on each new
  // connection, before anything else it runs.
  pool.on('connect', (client) => {
    client.query('set jit = off').catch((error: unknown) => log.warn({ err: error }, 'postgres: jit not turned off'));
  });
  const prepared = new Map<string, string>();
  return {
    db: new Kysely<Tables>({ dialect: new PostgresDialect({ pool: preparingPool(pool, prepared) }) }),
    dialect: 'postgres',
    url: databaseUrl,
    prepare(sql) {
      if (!prepared.has(sql)) prepared.set(sql, `piaffe_${prepared.size + 1}`);
    },
  };
}

/**
 * The pool as Kysely takes it, whose connections send each statement that `prepared` names as a named statement:
 * PostgreSQL parses and plans it once on a connection, then only binds and runs it (a one-row read by key took 110–140
 * µs a round trip unnamed, 45–76 named, on the machine of bench/README.md). Only the precompiled queries are named
 * (database.ts), a fixed set: a connection keeps as many statements, and loses them when it ends. The statements
 * outlive a migration only on a server that stays up through one, which an upgrade never does (docs/OPERATIONS.md).
 */
function preparingPool(pool: pg.Pool, prepared: ReadonlyMap<string, string>): PostgresPool {
  // One for each of pg's clients, so that Kysely, which keys its connections by client, finds its own again.
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let preparing = clients.get(client);
      if (!preparing) {
        // Kysely reads through a cursor only when given a cursor class, and we give none: it sends text and values.
        const query = (text: string, values: readonly unknown[]) =>
          client.query({ name: prepared.get(text), text, values: [...values] });
        preparing = { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
        clients.set(client, preparing);
      }
      return preparing;
    },
    end: () => pool.end(),
  };
}
