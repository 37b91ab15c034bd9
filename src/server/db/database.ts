import { randomUUID } from 'node:crypto';
import { type Compilable, type Insertable, type Kysely, sql, type Transaction } from 'kysely';
import type { Logger } from '../log';
import { type Change, ChangeFeed, type Topic } from './change-feed';
import type { Dialect, OpenDatabase } from './open';
import { PostgresChanges } from './postgres-changes';
import { type DirectRun, type Precompiled, precompile, type Runner } from './precompiled';
import type { Sequence, Tables } from './schema';
import type { SqliteConnection } from './sqlite-driver';
import { isBusy } from './sqlite-driver';

/** One transaction that several stores share: an order, the cart it empties and its e-mail commit together. */
export interface UnitOfWork {
  /** Every query of the unit runs on this transaction. */
  readonly trx: Transaction<Tables>;
  /**
   * Holds `key` (within `scope`) until the unit ends, so units that lock the same key run one after the
   * other, on every server. A no-op on SQLite, where one connection runs one transaction at a time.
   */
  lock(scope: string, key: string): Promise<void>;
  /** Queues an event, delivered only if and once the unit commits. */
  publish<Event>(topic: Topic<Event>, event: Event): void;
  /**
   * The next number of `sequence`, from its row of `counter` bumped in this unit: never the same twice, on any
   * server, and without a gap, since a unit that rolls back gives its number back. Units that take a number of one
   * sequence run one after the other from there to their commit (the row stays locked).
   */
  next(sequence: Sequence): Promise<number>;
}

/** The database: queries, units of work, and the feed of their committed changes. */
export interface Db {
  readonly kysely: Kysely<Tables>;
  readonly dialect: Dialect;
  readonly feed: ChangeFeed;
  /** A date as this database stores Better Auth's date columns. */
  timestamp(date: Date): Date | string;
  /** A yes or no as this database stores Better Auth's boolean columns (`user.emailVerified`). */
  flag(value: boolean): boolean | number;
  /** A query compiled once (precompiled.ts); `precompiled(uow?.trx, ...args)` runs it. */
  precompile<Args extends unknown[], Row>(
    arity: Args['length'],
    build: (...args: Args) => Compilable<Row>,
  ): Precompiled<Args, Row>;
  /** An insert of one whole row into `table`, compiled once; `columns` names every column of the table, each `true`. */
  precompileInsert<T extends keyof Tables>(
    table: T,
    columns: Record<keyof Tables[T] & string, true>,
  ): (executor: Kysely<Tables>, row: Tables[T]) => Promise<void>;
  /** Runs `work` in one transaction; its events go out once it has committed, never for a rollback. */
  run<T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * What differs between the databases. PostgreSQL sends each unit's changes to the other servers with NOTIFY,
 * inside the transaction (so only on commit), and locks with transaction-scoped advisory locks; SQLite has one
 * server and one writer, so it needs neither.
 */
interface DialectParts {
  lock(trx: Transaction<Tables>, scope: string, key: string): Promise<void>;
  beforeCommit(trx: Transaction<Tables>, changes: Change[]): Promise<void>;
  close(): Promise<void>;
}

/** The update that bumps a sequence's counter row and gives its new value, for `next`. */
type Bump = Precompiled<[sequence: Sequence], { value: number | string }>;

/**
 * Bumps the sequence's counter row in the unit's transaction, on either database. A sequence without a row yet (a
 * year's first invoice) gets one starting at 0: an insert that does nothing when another unit made the row first
 * (on PostgreSQL it waits for that unit's end), then the bump, which waits for the row's lock.
 */
async function next(trx: Transaction<Tables>, bump: Bump, sequence: Sequence): Promise<number> {
  let [row] = await bump(trx, sequence);
  if (!row) {
    await trx
      .insertInto('counter')
      .values({ name: sequence, value: 0 })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    [row] = await bump(trx, sequence);
  }
  if (!row) throw new Error(`The counter ${sequence} vanished inside the unit that made it.`);
  return Number(row.value);
}

const sqliteParts: DialectParts = {
  lock: async () => {},
  beforeCommit: async () => {},
  close: async () => {},
};

async function postgresParts(url: string, feed: ChangeFeed, log: Logger): Promise<DialectParts> {
  const changes = new PostgresChanges(url, randomUUID(), feed, log);
  try {
    await changes.ready();
  } catch (error) {
    await changes.close();
    throw error;
  }
  return {
    async lock(trx, scope, key) {
      await sql`select pg_advisory_xact_lock(hashtext(${scope}), hashtext(${key}))`.execute(trx);
    },
    beforeCommit: (trx, pending) => changes.send(trx, pending),
    close: () => changes.close(),
  };
}

/**
 * SQLite runs a precompiled query on the connection directly, without Kysely's asynchronous layers around a
 * synchronous driver, wherever that is what Kysely would do: inside the unit of work whose transaction is open on the
 * connection now (`unit()`), reads and writes alike (its transaction holds the file's write lock, so nothing waits);
 * and a read outside every unit while no transaction is open, whose uncommitted writes it must not see, and the file
 * is not busy. Anything else goes through Kysely, which waits. PostgreSQL's queries always go through Kysely's pool.
 */
function directRuns(sqlite: SqliteConnection | undefined, unit: () => Transaction<Tables> | undefined): DirectRun {
  if (!sqlite) return () => undefined;
  return function runDirectly({ sql: text, parameters }, executor) {
    if (executor !== undefined) {
      if (executor !== unit() || !sqlite.inTransaction) return undefined;
      const statement = sqlite.prepare(text);
      if (statement.reader) return statement.all(...parameters);
      statement.run(...parameters);
      return [];
    }
    if (sqlite.inTransaction) return undefined;
    const statement = sqlite.prepare(text);
    if (!statement.reader) return undefined;
    try {
      return statement.all(...parameters);
    } catch (error) {
      if (isBusy(error)) return undefined;
      throw error;
    }
  };
}

export async function createDb(opened: OpenDatabase, log: Logger): Promise<Db> {
  const { db: kysely } = opened;
  // The transaction of the unit of work under way; on SQLite one connection runs one at a time.
  let unit: Transaction<Tables> | undefined;
  const runner: Runner = {
    direct: directRuns(opened.dialect === 'sqlite' ? opened.sqlite : undefined, () => unit),
    // SQLite's connection prepares every statement once already (open.ts).
    prepare: opened.dialect === 'postgres' ? opened.prepare : () => {},
  };
  const bump: Bump = precompile(kysely, runner, 1, (sequence: Sequence) =>
    kysely
      .updateTable('counter')
      .set((eb) => ({ value: eb('value', '+', 1) }))
      .where('name', '=', sequence)
      .returning('value'),
  );
  const feed = new ChangeFeed();
  const parts = opened.dialect === 'postgres' ? await postgresParts(opened.url, feed, log) : sqliteParts;

  return {
    kysely,
    dialect: opened.dialect,
    feed,
    timestamp: (date) => (opened.dialect === 'sqlite' ? date.toISOString() : date),
    flag: (value) => (opened.dialect === 'sqlite' ? Number(value) : value),
    precompile: (arity, build) => precompile(kysely, runner, arity, build),
    precompileInsert(table, columnSet) {
      const columns = Object.keys(columnSet);
      const insert = precompile(kysely, runner, columns.length, (...values: unknown[]) =>
        // Any table: Kysely cannot type an insert whose table is a type parameter.
        kysely
          .insertInto(table as 'cart_item')
          .values(
            Object.fromEntries(columns.map((column, i) => [column, values[i]])) as Insertable<Tables['cart_item']>,
          ),
      );
      return async (executor, row) => {
        await insert(executor, ...columns.map((column) => (row as Record<string, unknown>)[column]));
      };
    },
    async run(work) {
      const changes: Change[] = [];
      const result = await kysely.transaction().execute(async (trx) => {
        unit = trx;
        try {
          const value = await work({
            trx,
            lock: (scope, key) => parts.lock(trx, scope, key),
            publish: (topic, event) => void changes.push({ topic: topic.name, event }),
            next: (sequence) => next(trx, bump, sequence),
          });
          if (changes.length > 0) await parts.beforeCommit(trx, changes);
          return value;
        } finally {
          if (unit === trx) unit = undefined;
        }
      });
      // This server's listeners hear of the change before its answer goes out.
      feed.deliver(changes);
      return result;
    },
    async close() {
      await parts.close();
      await kysely.destroy();
    },
  };
}

/** A Db whose units of work join one open unit while `batch` runs (`batchingDb`). */
export interface BatchingDb extends Db {
  /** Runs `work` in one unit of work, which every `run` of the stores made on this Db joins until it ends. */
  batch<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * `db`, but while `batch` runs every unit of work of the stores made on it is that batch's one unit: one transaction
 * and one commit for hundreds of the stores' units, their events delivered when it commits. For a command that writes
 * a great many changes through the stores into a new shop (`npm run demo-data`, docs/decisions/0046-a-big-shop.md);
 * never for a server's requests, whose units must commit (or roll back) each on its own. A store that refuses by
 * throwing (to roll its unit back) rolls the whole batch back; only reads inside the units may run in a batch, since on
 * SQLite a read outside them would wait for the batch's own connection.
 */
export function batchingDb(db: Db): BatchingDb {
  let open: UnitOfWork | undefined;
  return {
    ...db,
    run: (work) => (open ? work(open) : db.run(work)),
    batch: (work) =>
      db.run(async (uow) => {
        open = uow;
        try {
          return await work();
        } finally {
          open = undefined;
        }
      }),
  };
}
