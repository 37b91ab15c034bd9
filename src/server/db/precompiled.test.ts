import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { precompile } from './precompiled';
import type { Tables } from './schema';

const kysely = new Kysely<Tables>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });

describe('precompile', () => {
  it('runs the query compiled once with each call’s arguments, keeping the query’s own values', async () => {
    await kysely.schema
      .createTable('login_attempt')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'integer')
      .addColumn('window_started_at', 'bigint')
      .execute();
    const insert = precompile(2, (key: string, failures: number) =>
      kysely.insertInto('login_attempt').values({ key, failures, window_started_at: 7 }),
    );
    const find = precompile(1, (key: string) =>
      kysely.selectFrom('login_attempt').selectAll().where('key', '=', key).where('failures', '>', 0),
    );
    await insert(kysely, 'a', 1);
    await insert(kysely, 'b', 0);
    expect(await find(kysely, 'a')).toEqual([{ key: 'a', failures: 1, window_started_at: 7 }]);
    expect(await find(kysely, 'b')).toEqual([]);
  });

  it('refuses a query that does not bind an argument', () => {
    expect(() => precompile(1, (_key: string) => kysely.selectFrom('login_attempt').selectAll())).toThrow(
      /Argument 0 of a precompiled query is not a bound value/,
    );
  });
});
