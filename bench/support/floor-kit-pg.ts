/**
 * What the PostgreSQL floors (bench/floor-*-pg.ts) add to floor-kit.ts: a pool like Piaffe's on the database the
 * harness hands them (a copy of a shop Piaffe's own migrations made), statements prepared once per connection,
 * transactions, and sign-up. node-postgres and nothing else, as under Piaffe's Kysely.
 */
import pg from 'pg';
import { pgTypes, poolSize } from '../../src/server/db/open';
import type { ConstraintCodes, Handler } from './floor-kit';
import { signUpWith } from './floor-kit';

/** PostgreSQL's SQLSTATE codes. */
export const postgresCodes: ConstraintCodes = { foreignKey: '23503', unique: '23505' };

/**
 * A pool as Piaffe opens one (src/server/db/open.ts): as many connections, bigints read as numbers. On `url`, the
 * floor's `argv[3]`: a PostgreSQL database with Piaffe's tables, which the floor never makes itself.
 */
export function openFloorPool(url: string | undefined): pg.Pool {
  if (!url?.startsWith('postgres')) throw new Error(`a PostgreSQL floor runs on a database of Piaffe's: ${url} is not`);
  const pool = new pg.Pool({ connectionString: url, max: poolSize, keepAlive: true, types: pgTypes });
  pool.on('error', (failure) => console.error(failure));
  return pool;
}

/** The pool, or a connection holding a transaction open. */
export type On = pg.Pool | pg.PoolClient;

/**
 * A statement prepared once per connection under its name (node-postgres's named queries: parsed and planned at its
 * first run on a connection, then only bound and run), as better-sqlite3's `prepare` is to the SQLite floors; it
 * answers its rows.
 */
export function prepared<Row extends pg.QueryResultRow>(name: string, text: string) {
  return async (on: On, ...values: unknown[]): Promise<Row[]> => (await on.query<Row>({ name, text, values })).rows;
}

/**
 * `work` in one transaction on one connection: BEGIN, then COMMIT, which returns once the commit's WAL is on the disk
 * (synchronous_commit as the server has it: on by default, as Piaffe runs); ROLLBACK if `work` throws.
 */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    client.release();
    return result;
  } catch (failure) {
    // A connection that cannot roll back is not given back to the pool.
    await client.query('rollback').then(
      () => client.release(),
      (broken: Error) => client.release(broken),
    );
    throw failure;
  }
}

/**
 * Holds the rider's key until the transaction ends, as Piaffe's units of work on PostgreSQL do (`uow.lock('cart',
 * uid)`): a rider's cart changes and orders run one after the other, so the cart's limit of rows and the hourly limit
 * of orders hold with transactions running side by side. SQLite's one writer needs none.
 */
export const lockRider = prepared('lock-rider', `select pg_advisory_xact_lock(hashtext('cart'), hashtext($1))`);

/** floor-kit.ts's sign-up, on PostgreSQL (its user table as Better Auth makes it there). */
export function postgresSignUpRoute(pool: pg.Pool): Handler {
  const insertUser = prepared(
    'insert-user',
    `insert into "user" ("id", "name", "email", "emailVerified", "image", "createdAt", "updatedAt") values ($1, '', $2, false, null, $3, $3)`,
  );
  return signUpWith((uid, email, now) => insertUser(pool, uid, email, now));
}
