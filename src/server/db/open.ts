import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { Logger } from '../log';
import { createPrivateFile, makePrivateFolder } from '../private-files';
import type { Tables } from './schema';
import { WaitingSqliteDialect } from './sqlite-driver';

export type Dialect = 'sqlite' | 'postgres';

/** The SQLite connection under Kysely, its statements prepared once each; also for the reads that run on it directly. */
export interface SqliteConnection extends SqliteDatabase {
  prepare(sql: string): SQLite.Statement;
  /** Whether a transaction is open on the connection now. */
  readonly inTransaction: boolean;
}

export type OpenDatabase =
  | { db: Kysely<Tables>; dialect: 'sqlite'; sqlite: SqliteConnection }
  /** `url` is for the connections that live outside the pool (the change listener). */
  | { db: Kysely<Tables>; dialect: 'postgres'; url: string };

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

/** Connections per server; N servers need N x (poolSize + 1) connections (one each listens for changes). */
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
  return {
    db: new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) }),
    dialect: 'postgres',
    url: databaseUrl,
  };
}
