import { setTimeout as sleep } from 'node:timers/promises';
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  SqliteDialect,
} from 'kysely';

/** The SQLite connection under Kysely, its statements prepared once each; also for the reads that run on it directly. */
export interface SqliteConnection extends SqliteDatabase {
  prepare(sql: string): SQLite.Statement;
  /** Whether a transaction is open on the connection now. */
  readonly inTransaction: boolean;
}

/** Thrown when another program has held the SQLite file's write lock for longer than we wait; answered 503. */
export class DatabaseBusyError extends Error {
  constructor() {
    super('The database file is held by another writer.');
    this.name = 'DatabaseBusyError';
  }
}

/** SQLite's answers when another connection holds the lock it needs (SQLITE_BUSY and its extended codes). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** How long a statement waits, in all, for the file's lock before the request is answered 503. */
export const busyWaitMs = 5_000;
const firstPauseMs = 1;
const longestPauseMs = 50;

/**
 * Runs `attempt` until SQLite stops answering busy, pausing between tries without blocking the event loop (other
 * requests' direct reads go on meanwhile); after `busyWaitMs` it gives up with DatabaseBusyError.
 */
async function whenFree<T>(attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + busyWaitMs;
  for (let pause = firstPauseMs; ; pause = Math.min(pause * 2, longestPauseMs)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (Date.now() + pause > deadline) throw new DatabaseBusyError();
    }
    await sleep(pause);
  }
}

/**
 * SQLite as the shop writes it while other programs may write the same file (the owner command, an operator's
 * sqlite3). Kysely opens transactions with a deferred `BEGIN`: one that reads and then writes cannot take the
 * write lock if another connection wrote meanwhile, and SQLite fails it at once (SQLITE_BUSY_SNAPSHOT). So every
 * transaction begins IMMEDIATE, taking the write lock first; and a statement that finds the lock taken (the
 * BEGIN, or a write outside a transaction) is tried again after a pause, asynchronously, instead of
 * in SQLite's synchronous busy handler, which would stop every other request while it waits. Inside a
 * transaction nothing is retried: it holds the lock already. See docs/decisions/0020-waiting-for-the-sqlite-file.md.
 */
export class WaitingSqliteDialect extends SqliteDialect {
  readonly #database: SqliteConnection;

  constructor(database: SqliteConnection) {
    super({ database });
    this.#database = database;
  }

  override createDriver(): Driver {
    return new WaitingSqliteDriver(super.createDriver(), this.#database);
  }
}

class WaitingSqliteDriver implements Driver {
  readonly #inner: Driver;
  readonly #database: SqliteConnection;
  /** SQLite has one connection: Kysely's, and the one that waits for the file around it. */
  #connection?: { inner: DatabaseConnection; waiting: DatabaseConnection };

  constructor(inner: Driver, database: SqliteConnection) {
    this.#inner = inner;
    this.#database = database;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.#inner.acquireConnection();
    if (this.#connection?.inner !== inner) {
      const waiting: DatabaseConnection = {
        executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
          this.#database.inTransaction ? inner.executeQuery<R>(query) : whenFree(() => inner.executeQuery<R>(query)),
        streamQuery: (query, chunkSize) => inner.streamQuery(query, chunkSize),
      };
      this.#connection = { inner, waiting };
    }
    return this.#connection.waiting;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  releaseConnection(): Promise<void> {
    // Kysely's SQLite driver releases its one connection whatever it is handed.
    return this.#inner.releaseConnection(this.#connection?.inner as DatabaseConnection);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}
