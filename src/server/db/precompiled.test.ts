import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../log';
import { createDb, type Db } from './database';
import { migrate } from './migrations';
import { openSqlite } from './open';
import type { Tables } from './schema';

let dir: string;
let db: Db;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'piaffe-precompiled-'));
  const opened = openSqlite(`file:${join(dir, 'shop.db')}`);
  // Our migrations refer to Better Auth's user table and index its passkey table; these tests need only login_attempt.
  await opened.db.schema
    .createTable('user')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('emailVerified', 'integer')
    .execute();
  await opened.db.schema
    .createTable('passkey')
    .addColumn('credentialID', 'text', (c) => c.notNull())
    .execute();
  await migrate(opened.db, 'sqlite');
  db = await createDb(opened, createLogger('silent'));
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const attempt = (key: string, failures: number) => ({ key, failures, window_started_at: 7 });

describe('precompile', () => {
  it('runs the query compiled once with each call’s arguments, keeping the query’s own values', async () => {
    const insert = db.precompile(2, (key: string, failures: number) =>
      db.kysely.insertInto('login_attempt').values(attempt(key, failures)),
    );
    const find = db.precompile(1, (key: string) =>
      db.kysely.selectFrom('login_attempt').selectAll().where('key', '=', key).where('failures', '>', 0),
    );
    await db.run(async (uow) => {
      await insert(uow.trx, 'a', 1);
      await insert(uow.trx, 'b', 0);
      expect(await find(uow.trx, 'a')).toEqual([attempt('a', 1)]);
    });
    expect(await find(undefined, 'a')).toEqual([attempt('a', 1)]);
    expect(await find(undefined, 'b')).toEqual([]);
  });

  it('never reads what a transaction under way has not committed: it waits for the transaction', async () => {
    const find = db.precompile(1, (key: string) =>
      db.kysely.selectFrom('login_attempt').selectAll().where('key', '=', key),
    );
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted = () => {};
    const written = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const rolledBack = db
      .run(async (uow) => {
        await uow.trx.insertInto('login_attempt').values(attempt('uncommitted', 1)).execute();
        inserted();
        await held;
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    await written;
    const read = find(undefined, 'uncommitted');
    release();
    expect(await read).toEqual([]);
    expect(await rolledBack).toBe('rolled back');
  });

  it('runs a unit’s statements in its transaction: what it wrote is gone when it rolls back', async () => {
    const insert = db.precompile(1, (key: string) => db.kysely.insertInto('login_attempt').values(attempt(key, 1)));
    const find = db.precompile(1, (key: string) =>
      db.kysely.selectFrom('login_attempt').selectAll().where('key', '=', key),
    );
    const rolledBack = await db
      .run(async (uow) => {
        await insert(uow.trx, 'undone');
        expect(await find(uow.trx, 'undone')).toEqual([attempt('undone', 1)]);
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    expect(rolledBack).toBe('rolled back');
    expect(await find(undefined, 'undone')).toEqual([]);
  });

  it('refuses a unit’s transaction once the unit has ended, even while another unit is open', async () => {
    const insert = db.precompile(1, (key: string) => db.kysely.insertInto('login_attempt').values(attempt(key, 1)));
    let ended: Kysely<Tables> | undefined;
    await db.run(async (uow) => {
      ended = uow.trx;
    });
    await db.run(async () => {
      await expect(insert(ended, 'stale')).rejects.toThrow('Transaction is already committed');
    });
    expect(await db.kysely.selectFrom('login_attempt').selectAll().where('key', '=', 'stale').execute()).toEqual([]);
  });

  it('refuses a query that does not bind an argument', () => {
    expect(() => db.precompile(1, (_key: string) => db.kysely.selectFrom('login_attempt').selectAll())).toThrow(
      /Argument 0 of a precompiled query is not a bound value/,
    );
  });
});
